package dev.gatehouse.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.admin.QueryParameters;
import dev.gatehouse.gateway.notice.NoticeProperties;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import dev.gatehouse.gateway.support.RawHttp;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The console's decisions pages on decisions made through {@code /mcp} in this process, fed to the index by the
 * real feed from the real decision log: a denied call is found by agent, by its reason and by the decision id the
 * client got; its page names the reason in the rule's own words, shows the logged arguments (markup payloads) as
 * text, replays it against the served revision as the same decision and explains it with the trace of
 * {@code opa eval --explain} (the opa binary of {@code make opa}); bad search input is answered next to its
 * field; the export gives the record as logged. The policy page shows the served revision, what changed and the
 * kept revisions before the long tables, the access table by toolkit and tool, and its matrix.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/console-decisions.jsonl")
@Property(name = "gatehouse.decision-index.batch-delay", value = "20ms")
class ConsoleDecisionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private static final Pattern DECISION_ID = Pattern.compile("decisionId\\\\?\"\\s*:\\s*\\\\?\"([0-9a-f-]{36})");
    private static final String PAYLOAD = "<script>alert(1)</script><img src=x onerror=alert(2)>\u202Eevil";

    @Inject
    EmbeddedServer server;
    @Inject
    ConsoleSessions consoleSessions;
    @Inject
    RevisionHistory revisions;
    @Inject
    NoticeProperties replica;

    private String base() {
        return "http://127.0.0.1:" + server.getPort();
    }

    private HttpResponse<String> get(String path, String cookie) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html")
                .header("Cookie", ConsoleCookie.NAME + "=" + cookie).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + path)).method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Authorization", "Bearer admin-test-credential")
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A tools/call by a fresh agent's session; returns the decision id the client got. */
    private String call(String agent, String tool, String arguments) throws Exception {
        String session = "{\"environmentId\":\"local\",\"threadId\":\"t1\",\"providerSessionId\":\"ps-1\","
                + "\"providerInstanceId\":\"p-1\",\"logicalAgentId\":\"" + agent + "\",\"t3ProjectId\":\"proj-1\","
                + "\"agentName\":\"Agent\",\"provider\":\"codex\"}";
        String token = JSON.readTree(admin("POST", "/admin/sessions", session).body()).path("token").asText();
        String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
        String call = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "," + meta + "}}";
        RawHttp.Response response = RawHttp.post(server.getPort(), call, "Authorization: Bearer " + token,
                "Mcp-Method: tools/call", "Mcp-Name: " + tool, "MCP-Protocol-Version: 2026-07-28");
        Matcher id = DECISION_ID.matcher(response.body());
        assertTrue(id.find(), response.body());
        return id.group(1);
    }

    private void awaitIndexed(String decisionId) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (admin("GET", "/admin/decisions/" + decisionId, null).statusCode() != 200) {
            assertTrue(System.nanoTime() < deadline, "waited 30 s for the feed to index " + decisionId);
            Thread.sleep(20);
        }
    }

    @Test
    void aDeniedCallIsFoundExplainedInThePolicysWordsAndReplayed() throws Exception {
        String agent = "agent-" + UUID.randomUUID();
        String denied = call(agent, "wiki_write", "{\"path\":\"" + PAYLOAD.replace("\"", "\\\"")
                + ".md\",\"content\":\"" + PAYLOAD + "\"}");
        awaitIndexed(denied);
        String reason = JSON.readTree(admin("GET", "/admin/decisions/" + denied, null).body()).path("decision")
                .path("reasons").path(0).asText();
        assertFalse(reason.isEmpty(), "a denial carries a reason");
        String cookie = consoleSessions.start(new ConsoleSessions.Operator("op-decisions", "https://issuer.example",
                "op-decisions"));

        HttpResponse<String> byAgent = get("/console/decisions?agent=" + URLEncoder.encode(agent,
                StandardCharsets.UTF_8), cookie);
        assertEquals(200, byAgent.statusCode(), byAgent.body());
        assertTrue(byAgent.body().contains("/console/decisions/" + denied), "found by agent");
        assertTrue(byAgent.body().contains("<td class=\"caller\"><span class=\"kind\">thread</span> <bdi class=\"id\">"
                + agent + "</bdi></td>"), "the caller's kind and agent in one column: " + byAgent.body());
        assertTrue(byAgent.body().contains("<code>" + reason + "</code>"), "counted per reason");

        HttpResponse<String> byReason = get("/console/decisions?outcome=denied&reason=" + reason, cookie);
        assertTrue(byReason.body().contains("/console/decisions/" + denied), "found by reason");

        HttpResponse<String> byId = get("/console/decisions?decisionId=" + denied, cookie);
        assertEquals(303, byId.statusCode());
        assertEquals("/console/decisions/" + denied, byId.headers().firstValue("Location").orElseThrow());

        HttpResponse<String> page = get("/console/decisions/" + denied, cookie);
        assertEquals(200, page.statusCode(), page.body());
        String sentence = revisions.kept().get(0).contents().reasons().get(reason).description();
        assertTrue(page.body().contains(escape(sentence)), "the METADATA sentence of " + reason);
        assertFalse(page.body().contains("<script>") || page.body().contains("<img"), "markup renders as text");
        assertTrue(page.body().contains("&lt;script&gt;alert(1)&lt;/script&gt;"), page.body());
        assertTrue(page.body().contains("\\u202Eevil") && !page.body().contains("\u202E"),
                "a bidi override in an argument is shown as its escape, never applied");
        assertFalse(page.body().contains("aria-label=\"Obligations\""), "a denial's empty obligations: no box");

        HttpResponse<String> replayed = get("/console/decisions/" + denied + "?replay=true", cookie);
        assertEquals(200, replayed.statusCode(), replayed.body());
        assertTrue(replayed.body().contains("<strong>same</strong> decision"), replayed.body());
        assertTrue(replayed.body().contains("(served)"));
        assertTrue(replayed.body().contains("(decided it)"), "the revision that decided is marked");
        assertTrue(replayed.body().contains("each revision replica " + replica.getReplicaName() + " keeps"),
                "whose kept revisions answered");

        HttpResponse<String> explained = get("/console/decisions/" + denied + "?explain=true", cookie);
        assertEquals(200, explained.statusCode(), explained.body());
        assertTrue(explained.body().contains("aria-label=\"Trace\""), "the opa eval --explain trace: "
                + explained.body());
        assertTrue(explained.body().contains("<li><code>" + reason + "</code>: "), "where the policy declares "
                + reason);

        // A parameter the page does not take, one given twice, or a value it does not know is refused and said,
        // never shown as the plain page (a new user's trial: ?ceiling=bogus was taken as nothing asked).
        for (String[] c : new String[][] {{"ceiling=bogus", "The parameter <code>ceiling</code>: Not a parameter"},
            {"replay=yes", "The parameter <code>replay</code>: Takes true"},
            {"explain=false", "The parameter <code>explain</code>: Takes true"},
            {"replay=true&replay=true", "The parameter <code>replay</code>: Given 2 times"},
            {"replay=true&Explain=true", "The parameter <code>Explain</code>: Not a parameter"},
            // given without a value: refused, never read as absent (a new user's trial: ?replay= answered 200)
            {"replay=", "The parameter <code>replay</code>: " + QueryParameters.EMPTY},
            {"replay", "The parameter <code>replay</code>: " + QueryParameters.EMPTY},
            {"replay=%20", "The parameter <code>replay</code>: " + QueryParameters.EMPTY},
            {"explain=", "The parameter <code>explain</code>: " + QueryParameters.EMPTY},
            {"explain", "The parameter <code>explain</code>: " + QueryParameters.EMPTY},
            {"explain=%0A", "The parameter <code>explain</code>: " + QueryParameters.EMPTY},
            {"replay=true&explain=", "The parameter <code>explain</code>: " + QueryParameters.EMPTY},
            {"replay=TRUE", "The parameter <code>replay</code>: Takes true"}}) {
            HttpResponse<String> refused = get("/console/decisions/" + denied + "?" + c[0], cookie);
            assertEquals(400, refused.statusCode(), c[0]);
            assertTrue(refused.body().contains(c[1]), c[0] + ": " + refused.body());
            assertFalse(refused.body().contains("aria-label=\"Arguments\"") || refused.body().contains("Trace"),
                    "nothing of the decision shown: " + c[0]);
        }
        assertEquals(400, get("/console/decisions/" + UUID.randomUUID() + "?x=1", cookie).statusCode(),
                "the parameters are read before the decision is looked up");
        HttpResponse<String> both = get("/console/decisions/" + denied + "?replay=true&explain=true", cookie);
        assertEquals(200, both.statusCode());
        assertTrue(both.body().contains("(decided it)") && both.body().contains("aria-label=\"Trace\""));

        HttpResponse<String> export = get("/console/decisions/export?agent=" + URLEncoder.encode(agent,
                StandardCharsets.UTF_8), cookie);
        assertEquals(200, export.statusCode());
        List<String> lines = export.body().lines().toList();
        assertEquals(1, lines.size());
        assertEquals(denied, JSON.readTree(lines.get(0)).path("decision_id").asText());
    }

    @Test
    void badSearchInputIsAnsweredNextToItsFieldAndAnUnknownIdIsNotFound() throws Exception {
        String cookie = consoleSessions.start(new ConsoleSessions.Operator("op-bad", "https://issuer.example",
                "op-bad"));
        for (String[] c : new String[][] {{"from=yesterday", "f-from-error"}, {"outcome=maybe", "f-outcome-error"},
            {"reason=no.such.code", "f-reason-error"}, {"decisionId=nope", "f-decisionId-error"},
            {"from=2000-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", "f-to-error"}}) {
            HttpResponse<String> page = get("/console/decisions?" + c[0], cookie);
            assertEquals(400, page.statusCode(), c[0]);
            assertTrue(page.body().contains("id=\"" + c[1] + "\""), c[0] + ": " + page.body());
        }
        // a misspelt or repeated parameter would widen or guess the search: the page says so and lists nothing
        for (String[] c : new String[][] {{"outcom=denied", "<code>outcom</code>"}, {"cursor=nope", "<code>cursor</code>"},
            {"tool=wiki_read&tool=wiki_write", "id=\"f-tool-error\""}}) {
            HttpResponse<String> page = get("/console/decisions?" + c[0], cookie);
            assertEquals(400, page.statusCode(), c[0]);
            assertTrue(page.body().contains(c[1]), c[0] + ": " + page.body());
            assertEquals(400, get("/console/decisions/export?" + c[0], cookie).statusCode(), "export " + c[0]);
        }
        assertTrue(get("/console/decisions?outcom=denied", cookie).body().contains("The parameter <code>outcom</code>: Not a parameter of this search"));
        // the empty name is named readably, a name's invisible characters as text (a new user's trial: ?=x was
        // "The parameter : Not a parameter…")
        for (String path : List.of("/console/decisions?=x", "/console/decisions?=", "/console/decisions?agent=a1&=x",
                "/console/decisions/export?=x", "/console/decisions/" + UUID.randomUUID() + "?=x")) {
            HttpResponse<String> page = get(path, cookie);
            assertEquals(400, page.statusCode(), path);
            assertTrue(page.body().contains("The parameter <code>" + Visible.EMPTY_NAME + "</code>: Not a parameter"),
                    path + ": " + page.body());
        }
        assertTrue(get("/console/decisions?a%E2%80%AEb=1", cookie).body().contains("<code>a\\u202Eb</code>"));
        assertEquals(404, get("/console/decisions/" + UUID.randomUUID(), cookie).statusCode());
        assertEquals(404, get("/console/decisions/%3Cb%3E", cookie).statusCode());
    }

    /**
     * A parameter given empty is refused on the page, never read as no filter (a new user's trial: {@code ?agent=}
     * listed every agent's decisions), next to its field or named; the export refuses it too. The search form is sent
     * to {@code /console/decisions/find}, which goes on to the search with only what was filled in.
     */
    @Test
    void anEmptyParameterIsRefusedAndTheFormSendsOnlyWhatWasFilledIn() throws Exception {
        String cookie = consoleSessions.start(new ConsoleSessions.Operator("op-empty", "https://issuer.example",
                "op-empty"));
        for (String name : DecisionsController.PARAMETERS) {
            String said = DecisionsController.FIELDS.contains(name) || name.equals("decisionId")
                    ? "<p class=\"error\" id=\"f-" + name + "-error\">" + QueryParameters.EMPTY + "</p>"
                    : "The parameter <code>" + name + "</code>: " + QueryParameters.EMPTY;
            String filled = name.equals("agent") ? "outcome=denied" : "agent=a1";
            for (String query : List.of(name + "=", name + "=%20", name, name + "=&" + filled, filled + "&" + name
                    + "=", name + "=%C2%A0", name + "=%E2%80%8B")) {
                HttpResponse<String> page = get("/console/decisions?" + query, cookie);
                assertEquals(400, page.statusCode(), query);
                assertTrue(page.body().contains(said), query + ": " + page.body());
                assertFalse(page.body().contains("aria-label=\"Counts\""), "nothing searched: " + query);
                if (!name.equals("decisionId")) { // the export takes a decision id and leaves it out, as the page
                    assertEquals(400, get("/console/decisions/export?" + query, cookie).statusCode(),
                            "export " + query);
                }
            }
        }
        String id = UUID.randomUUID().toString();
        for (String[] c : new String[][] {
            {"decisionId=&from=&to=&agent=a1&callerKind=&tool=%20&outcome=denied&reason=&revision=",
                "/console/decisions?agent=a1&outcome=denied"},
            {"decisionId=&from=&to=&agent=&callerKind=&tool=&outcome=&reason=&revision=", "/console/decisions"},
            {"decisionId=" + id + "&from=&agent=", "/console/decisions?decisionId=" + id},
            {"agent=a+b%26c", "/console/decisions?agent=a+b%26c"},
            {"outcom=denied&tool=", "/console/decisions?outcom=denied"},
            // a stray parameter, a repeated field and one without '=' are passed on for the page to refuse, empty or
            // not (a new user's trial: ?bogus= went to the page dropped, ?agent=&agent=a2 as ?agent=a2)
            {"agent=%E2%80%8B&tool=%C2%A0&outcome=denied&revision=%E3%80%80", "/console/decisions?outcome=denied"},
            {"bogus=", "/console/decisions?bogus="}, {"agent=a1&bogus=%20", "/console/decisions?agent=a1&bogus=%20"},
            {"agent=&agent=a2", "/console/decisions?agent=&agent=a2"},
            {"tool=&agent=a1&tool=", "/console/decisions?tool=&agent=a1&tool="},
            {"limit=&method=&cursor=", "/console/decisions?limit=&method=&cursor="},
            {"agent", "/console/decisions?agent"}, {"=&agent=", "/console/decisions?="},
            {"%61gent=&agent=a1", "/console/decisions?%61gent=&agent=a1"}}) {
            HttpResponse<String> found = get("/console/decisions/find?" + c[0], cookie);
            assertEquals(303, found.statusCode(), c[0]);
            assertEquals(c[1], found.headers().firstValue("Location").orElseThrow(), c[0]);
        }
        assertEquals(200, get("/console/decisions?agent=a1&outcome=denied", cookie).statusCode());
        assertEquals(303, get("/console/decisions?decisionId=" + id, cookie).statusCode());
        assertTrue(get("/console/decisions", cookie).body().contains("action=\"/console/decisions/find\""));
    }

    @Test
    void thePolicyPageShowsTheServedRevisionItsAccessTableAndItsMatrix() throws Exception {
        String cookie = consoleSessions.start(new ConsoleSessions.Operator("op-policy", "https://issuer.example",
                "op-policy"));
        HttpResponse<String> page = get("/console/policy", cookie);
        assertEquals(200, page.statusCode(), page.body());
        assertTrue(page.body().contains(revisions.kept().get(0).revision()), "the served revision");
        assertTrue(page.body().contains("<code>wiki_read</code>"), "the access table");
        assertTrue(page.body().contains("<dd>" + replica.getReplicaName() + " (each replica keeps its own"),
                "which replica's revisions these are");
        int changes = page.body().indexOf("<h2>Changes from the revision served before</h2>");
        int kept = page.body().indexOf("<h2>Kept revisions</h2>");
        int table = page.body().indexOf("<h2>Access table</h2>");
        int matrix = page.body().indexOf("<h2>Caller × tool matrix</h2>");
        assertTrue(0 < changes && changes < kept && kept < table && table < matrix,
                "what changed and what is kept come before the long tables");
        Matcher row = Pattern.compile("<tr><td><code>([a-z0-9_]+)</code></td><td>([a-z]+)</td>").matcher(page.body());
        List<String> rows = new ArrayList<>();
        while (row.find()) {
            rows.add(row.group(2) + " " + row.group(1));
        }
        assertEquals(revisions.kept().get(0).contents().rows().size(), rows.size(), rows.toString());
        assertEquals(rows.stream().sorted(Comparator.naturalOrder()).toList(), rows, "by toolkit, then tool");
        assertTrue(page.body().contains("caller profiles ×"), "the review library's matrix");
        assertTrue(page.body().contains("No earlier revision is kept."));
        assertTrue(page.body().contains("None refused since start-up."));
        assertFalse(page.body().contains("style=") || page.body().contains("<script"), "the console's CSP holds");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&#34;")
                .replace("'", "&#39;");
    }
}
