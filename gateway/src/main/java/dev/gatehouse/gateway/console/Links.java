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

    /** The revoke action of one session. */
    public static String revoke(String sessionId) {
        return "/console/sessions/" + URLEncoder.encode(sessionId, StandardCharsets.UTF_8).replace("+", "%20")
                + "/revoke";
    }
}
