package dev.gatehouse.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.project.WorkNotice;
import dev.gatehouse.gateway.admin.NoticeQueries;
import dev.gatehouse.gateway.admin.QueryParameters;
import dev.gatehouse.gateway.notice.NoticeStatus;
import dev.gatehouse.gateway.notice.NoticeStore;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's Notices page and {@code GET /admin/notices/receipts} on notices stored in the real PostgreSQL store
 * (embedded) through the store's own delivery steps (receive, coalesce, refuse, aggregate sent): every state is
 * counted and listed, the filters per state, agent and project select, refused notices show their reason codes and
 * decision, aggregates are counted per thread, a stream's last error stays shown after it recovered, values from
 * agents render as text, and a bad filter is answered next to its field.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/console-notices.jsonl")
class ConsoleNoticesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private static final String PAYLOAD = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    private static final String REASON = "notice_project_not_bound";

    @Inject
    EmbeddedServer server;
    @Inject
    ConsoleSessions consoleSessions;
    @Inject
    NoticeStore store;
    @Inject
    NoticeStatus status;

    private String agent;
    private String refusalDecision;
    private String cookie;
    private int seq;

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .header("Accept", "text/html").header("Cookie", ConsoleCookie.NAME + "=" + cookie).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode admin(String query, int expected) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.getPort() + "/admin/notices/receipts?" + query))
                .header("Authorization", "Bearer admin-test-credential").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private NoticeStore.Received receive(String noticeId, String agentId, String project, String run, int position) {
        return store.receive(new WorkNotice(Integer.toString(++seq), noticeId, 1, agentId, "Agent", project,
                "Project", "w-" + run, "pos-" + run, run, "run:1", "position:" + position, Optional.empty()),
                position);
    }

    private static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * One agent's notices in every state on project {@code proj-one}, and one pending on {@code proj-two}: two
     * delivered in two aggregates into {@code thread-1}, one coalesced, one refused, one pending and one stale.
     */
    @BeforeEach
    void notices() {
        agent = "agent-" + UUID.randomUUID();
        cookie = consoleSessions.start(new ConsoleSessions.Operator("op-notices", "https://issuer.example",
                "op-notices"));
        NoticeStore.Group one = new NoticeStore.Group(agent, "proj-one");
        receive(agent + "-delivered-1", agent, "proj-one", "r-1", 1);
        store.startAggregate(agent + "-agg-1", one, Optional.empty(), List.of(agent + "-delivered-1"));
        store.aggregateSent(agent + "-agg-1", agent + "-thread-1");
        receive(agent + "-delivered-2", agent, "proj-one", "r-1", 2);
        store.startAggregate(agent + "-agg-2", one, Optional.of(agent + "-thread-1"), List.of(agent + "-delivered-2"));
        store.aggregateSent(agent + "-agg-2", agent + "-thread-1");
        receive(agent + "-coalesced", agent, "proj-one", "r-1", 3);
        store.coalesce(List.of(agent + "-coalesced"));
        receive(agent + "-refused", agent, "proj-one", "r-1", 4);
        refusalDecision = UUID.randomUUID().toString();
        store.refuse(agent + "-refused", List.of(REASON), refusalDecision);
        receive(agent + "-pending", agent, "proj-one", "r-2", 5);
        assertEquals("stale", receive(agent + "-stale", agent, "proj-one", "r-2", 3).receipt().state().wire());
        receive(agent + "-other-project", agent, "proj-two", "r-3", 1);
    }

    /** The count shown in the page's "By state" table for {@code state}. */
    private static long count(String page, String state) {
        Matcher m = Pattern.compile(">" + state + "</a></td>\\s*<td>(\\d+)</td>").matcher(page);
        assertTrue(m.find(), "a count of " + state + ": " + page);
        return Long.parseLong(m.group(1));
    }

    private List<String> listed(String page) {
        List<String> ids = new ArrayList<>();
        for (String suffix : List.of("delivered-1", "delivered-2", "coalesced", "refused", "pending", "stale",
                "other-project")) {
            if (page.contains("<td class=\"id\"><bdi>" + agent + "-" + suffix + "</bdi></td>")) {
                ids.add(suffix);
            }
        }
        return ids;
    }

    @Test
    void everyStateIsCountedAndListedAndTheFiltersSelect() throws Exception {
        HttpResponse<String> all = get("/console/notices?agent=" + q(agent));
        assertEquals(200, all.statusCode(), all.body());
        String page = all.body();
        assertEquals(2, count(page, "pending"));
        assertEquals(1, count(page, "coalesced"));
        assertEquals(2, count(page, "delivered"));
        assertEquals(1, count(page, "refused"));
        assertEquals(1, count(page, "stale"));
        assertEquals(List.of("delivered-1", "delivered-2", "coalesced", "refused", "pending", "stale",
                "other-project"), listed(page));
        assertTrue(page.contains("aria-current=\"page\">Notices</a>"), "the navigation names the page");
        assertFalse(page.contains("style=") || page.contains("<script"), "the console's CSP holds");

        String refused = get("/console/notices?agent=" + q(agent) + "&state=refused").body();
        assertEquals(List.of("refused"), listed(refused));
        assertTrue(refused.contains("<code>" + REASON + "</code>"), "the refusal's reason code");
        assertTrue(refused.contains("href=\"/console/decisions/" + refusalDecision + "\""), "the refusing decision");
        assertEquals(2, count(refused, "pending"), "the counts keep every state of the agent");

        String pending = get("/console/notices?agent=" + q(agent) + "&state=pending&project=proj-two").body();
        assertEquals(List.of("other-project"), listed(pending));
        assertEquals(1, count(pending, "pending"));
        assertEquals(0, count(pending, "delivered"));
        assertTrue(pending.contains("No aggregate message was sent for this agent and project."));

        String otherAgent = get("/console/notices?agent=" + q(agent + "x")).body();
        assertEquals(List.of(), listed(otherAgent));
        assertTrue(otherAgent.contains("No notice matches."));
    }

    @Test
    void aggregatesAreCountedPerThread() throws Exception {
        String page = get("/console/notices?agent=" + q(agent) + "&project=proj-one").body();
        Matcher row = Pattern.compile("<bdi>" + Pattern.quote(agent + "-thread-1") + "</bdi> \\(current\\)</td>"
                + "\\s*<td>(\\d+)</td>\\s*<td>(\\d+)</td>\\s*<td>(\\d+)</td>").matcher(page);
        assertTrue(row.find(), page);
        assertEquals("2", row.group(1), "aggregates sent");
        assertEquals("2", row.group(2), "notices delivered");
        assertEquals("0", row.group(3), "sending");

        JsonNode api = admin("agent=" + q(agent) + "&project=proj-one", 200);
        assertEquals(1, api.path("threads").size(), api.toString());
        assertEquals(2, api.path("threads").path(0).path("aggregatesSent").asLong());
        assertEquals(2, api.path("threads").path(0).path("noticesDelivered").asLong());
        assertTrue(api.path("threads").path(0).path("current").asBoolean());
    }

    @Test
    void theAdminApiGivesTheSameListing() throws Exception {
        JsonNode refused = admin("agent=" + q(agent) + "&state=refused", 200);
        assertEquals(1, refused.path("notices").size(), refused.toString());
        JsonNode one = refused.path("notices").path(0);
        assertEquals(agent + "-refused", one.path("noticeId").asText());
        assertEquals(REASON, one.path("reasons").path(0).asText());
        assertEquals(refusalDecision, one.path("decisionId").asText());
        assertEquals(2, refused.path("counts").path("pending").asLong());
        assertEquals(1, refused.path("counts").path("stale").asLong());

        JsonNode bad = admin("state=maybe&limit=0", 400);
        assertEquals("invalid_fields", bad.path("error").asText());
        assertEquals(List.of("state", "limit"), List.of(bad.path("invalid").path(0).asText(),
                bad.path("invalid").path(1).asText()));
    }

    @Test
    void withoutASessionOrTheAdminCredentialNothingIsListed() throws Exception {
        HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.getPort() + "/console/notices?agent=" + q(agent))).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("/console/sign-in", page.headers().firstValue("Location").orElseThrow());
        assertFalse(page.body().contains(agent));
        HttpResponse<String> api = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.getPort() + "/admin/notices/receipts?agent=" + q(agent))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, api.statusCode());
        assertFalse(api.body().contains(agent));
    }

    @Test
    void badFiltersAreAnsweredNextToTheirField() throws Exception {
        for (String[] c : new String[][] {{"state=maybe", "f-state-error"}, {"limit=0", "f-limit-error"},
            {"limit=501", "f-limit-error"}, {"agent=" + "a".repeat(513), "f-agent-error"},
            {"project=" + "p".repeat(513), "f-project-error"}}) {
            HttpResponse<String> page = get("/console/notices?" + c[0]);
            assertEquals(400, page.statusCode(), c[0]);
            assertTrue(page.body().contains("id=\"" + c[1] + "\""), c[0] + ": " + page.body());
        }
        HttpResponse<String> misspelt = get("/console/notices?stat=pending");
        assertEquals(400, misspelt.statusCode());
        assertTrue(misspelt.body().contains("The parameter <code>stat</code>: Not a parameter of this search"), misspelt.body());
        HttpResponse<String> twice = get("/console/notices?state=delivered&state=pending");
        assertEquals(400, twice.statusCode());
        assertTrue(twice.body().contains("id=\"f-state-error\""), twice.body());
    }

    /**
     * A filter given empty is refused next to its field, never read as no filter (as the decisions search: a new
     * user's trial); the form is sent to {@code /console/notices/find}, which goes on with what was filled in.
     */
    @Test
    void anEmptyFilterIsRefusedAndTheFormSendsOnlyWhatWasFilledIn() throws Exception {
        for (String name : NoticeQueries.PARAMETERS) {
            String filled = name.equals("agent") ? "project=proj-one" : "agent=" + q(agent);
            for (String query : List.of(name + "=", name + "=%20", name, name + "=&" + filled)) {
                HttpResponse<String> page = get("/console/notices?" + query);
                assertEquals(400, page.statusCode(), query);
                assertTrue(page.body().contains("<p class=\"error\" id=\"f-" + name + "-error\">"
                        + QueryParameters.EMPTY + "</p>"), query + ": " + page.body());
            }
        }
        for (String[] c : new String[][] {{"state=&agent=a1&project=&limit=", "/console/notices?agent=a1"},
            {"state=&agent=&project=&limit=", "/console/notices"},
            {"state=refused&agent=%20&project=p+1&limit=5", "/console/notices?state=refused&project=p+1&limit=5"},
            {"bogus=&agent=", "/console/notices?bogus="}, {"agent=&agent=a2", "/console/notices?agent=&agent=a2"},
            {"limit=&state=&limit=", "/console/notices?limit=&limit="}, {"project", "/console/notices?project"}}) {
            HttpResponse<String> found = get("/console/notices/find?" + c[0]);
            assertEquals(303, found.statusCode(), c[0]);
            assertEquals(c[1], found.headers().firstValue("Location").orElseThrow(), c[0]);
        }
        assertTrue(get("/console/notices").body().contains("action=\"/console/notices/find\""));
        for (String query : List.of("=x", "=", "agent=a1&=x")) {
            HttpResponse<String> page = get("/console/notices?" + query);
            assertEquals(400, page.statusCode(), query);
            assertTrue(page.body().contains("The parameter <code>" + Visible.EMPTY_NAME + "</code>: Not a parameter"),
                    "the empty name is named readably: " + page.body());
        }
        assertTrue(get("/console/notices?a%E2%80%AEb=1").body().contains("<code>a\\u202Eb</code>"));
    }

    @Test
    void valuesFromAgentsRenderAsText() throws Exception {
        String marked = PAYLOAD + UUID.randomUUID();
        receive(marked + "-n", marked, PAYLOAD, PAYLOAD, 1);
        store.refuse(marked + "-n", List.of(REASON), "\"><script>alert(3)</script>");
        String page = get("/console/notices?agent=" + q(marked)).body();
        assertTrue(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"), page);
        assertFalse(page.contains("<script") || page.contains("<img"), "markup renders as text");
        assertTrue(page.contains("href=\"/console/decisions/%22%3E%3Cscript%3Ealert%283%29%3C%2Fscript%3E\""),
                "a stored decision id is one encoded path segment: " + page);
    }

    @Test
    void aStreamsLastErrorStaysShownAfterItRecovers() throws Exception {
        status.failed("project", new ServiceError.Authentication("the Project Service refused <the> credential"));
        status.ok("project");
        String page = get("/console/notices").body();
        assertTrue(page.contains("<dt>Stream <code>project</code></dt>"), page);
        assertTrue(page.contains("<strong>ok</strong> since"), "the stream's state now");
        assertTrue(page.contains("<td><code>project</code></td><td>authentication</td>"), "its last error's kind");
        assertTrue(page.contains("the Project Service refused &lt;the&gt; credential"), "its message, as text");
    }
}
