package dev.gatehouse.gateway.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Console paths built from values agents or tokens chose, encoded so a value is always one path segment or query. */
public final class Links {

    private Links() {
    }

    /** One agent's page. */
    public static String agent(String agentId) {
        return AgentPage.path(agentId);
    }

    /** The audit page filtered by agent. */
    public static String auditOfAgent(String agentId) {
        return "/console/audit?agent=" + URLEncoder.encode(agentId, StandardCharsets.UTF_8);
    }

    /** The audit page's next older entries: {@code filters} (blank ones left out) kept, before entry {@code id}. */
    public static String auditBefore(java.util.Map<String, String> filters, long id) {
        return "/console/audit?" + query(filters) + "before=" + id;
    }

    /** The revoke action of one session. */
    public static String revoke(String sessionId) {
        return "/console/sessions/" + URLEncoder.encode(sessionId, StandardCharsets.UTF_8).replace("+", "%20")
                + "/revoke";
    }

    /** The decisions search with {@code filters} (blank ones left out), from {@code cursor}. */
    public static String decisions(java.util.Map<String, String> filters, String cursor) {
        return "/console/decisions?" + query(filters) + "cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8);
    }

    /** The JSON Lines export of the decisions search with {@code filters}. */
    public static String decisionsExport(java.util.Map<String, String> filters) {
        return "/console/decisions/export?" + query(filters);
    }

    /** One decision's page. */
    public static String decision(java.util.UUID decisionId) {
        return "/console/decisions/" + decisionId;
    }

    /** The notices page with {@code filters} (blank ones left out). */
    public static String notices(java.util.Map<String, String> filters) {
        String query = query(filters);
        return "/console/notices" + (query.isEmpty() ? "" : "?" + query.substring(0, query.length() - 1));
    }

    /** The page of a decision by its id as given (a notice's refusal names one as stored), encoded as one segment. */
    public static String decision(String decisionId) {
        return "/console/decisions/" + URLEncoder.encode(decisionId, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String query(java.util.Map<String, String> filters) {
        StringBuilder query = new StringBuilder();
        filters.forEach((name, value) -> {
            if (value != null && !value.isBlank() && !name.equals("decisionId")) {
                query.append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8)).append('&');
            }
        });
        return query.toString();
    }
}
