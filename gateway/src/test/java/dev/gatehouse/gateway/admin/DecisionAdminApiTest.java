package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.decisions.DecisionIndex;
import dev.gatehouse.gateway.decisions.DecisionSummary;
import dev.gatehouse.gateway.decisions.Outcome;
import dev.gatehouse.gateway.decisions.StoredDecision;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * {@code /admin/decisions}: the search by each filter and by decision id over HTTP, the export as JSON Lines, the
 * scan bound's "narrow the range" note, and bad input of every kind answered 400 with the field named, never 500.
 * The decisions are written to the index directly (the feed is tested in DecisionIndexFeedTest).
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/decision-admin.jsonl")
@Property(name = "gatehouse.decision-index.enabled", value = "false")
@Property(name = "gatehouse.decision-index.scan-limit", value = "20")
class DecisionAdminApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Inject
    EmbeddedServer server;
    @Inject
    DecisionIndex index;
    @Inject
    RevisionHistory revisions;

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .header("Authorization", "Bearer admin-test-credential").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String q(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private String knownReason() {
        return revisions.kept().get(0).contents().reasons().keySet().iterator().next();
    }

    /** {@code n} decisions of {@code agent}, one second apart ending a minute ago; odd ones denied for reason. */
    private List<StoredDecision> write(String agent, int n, String reason) {
        Instant end = Instant.now().minus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.MILLIS);
        List<StoredDecision> decisions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            UUID id = UUID.randomUUID();
            boolean denied = i % 2 == 1;
            DecisionSummary summary = new DecisionSummary(id, end.minusSeconds(n - i), "replica-a", "tools/call",
                    Optional.of("wiki_read"), "thread", agent, Optional.of("t1"),
                    denied ? Outcome.DENIED : Outcome.ALLOWED, denied ? List.of(reason) : List.of(),
                    Optional.of("rev-x"), Optional.of("default"));
            decisions.add(new StoredDecision(summary, "{\"decision_id\":\"" + id
                    + "\",\"arguments\":{\"path\":\"<script>alert(1)</script>\"}}", Optional.empty(), false));
        }
        index.add(decisions);
        return decisions;
    }

    @Test
    void decisionsAreFoundByAgentReasonAndIdAndExportedAsJsonLines() throws Exception {
        String agent = "agent-" + UUID.randomUUID();
        String reason = knownReason();
        List<StoredDecision> written = write(agent, 6, reason);

        HttpResponse<String> byAgent = get("/admin/decisions?agent=" + q(agent));
        assertEquals(200, byAgent.statusCode(), byAgent.body());
        JsonNode body = JSON.readTree(byAgent.body());
        assertEquals(6, body.path("decisions").size());
        assertEquals(written.get(5).summary().decisionId().toString(),
                body.path("decisions").path(0).path("decisionId").asText(), "newest first");
        assertEquals(3, body.path("outcomes").path("denied").asInt());
        assertEquals(3, body.path("reasons").path(reason).asInt());
        assertTrue(body.path("note").isMissingNode());

        JsonNode denied = JSON.readTree(get("/admin/decisions?agent=" + q(agent) + "&outcome=denied&reason="
                + q(reason) + "&limit=2").body());
        assertEquals(2, denied.path("decisions").size());
        JsonNode rest = JSON.readTree(get("/admin/decisions?agent=" + q(agent) + "&outcome=denied&reason="
                + q(reason) + "&limit=2&cursor=" + q(denied.path("next").asText())).body());
        assertEquals(1, rest.path("decisions").size());
        assertTrue(rest.path("next").isMissingNode());

        String id = written.get(3).summary().decisionId().toString();
        HttpResponse<String> one = get("/admin/decisions/" + id);
        assertEquals(200, one.statusCode(), one.body());
        JsonNode found = JSON.readTree(one.body());
        assertEquals(id, found.path("record").path("decision_id").asText());
        assertEquals("denied", found.path("decision").path("outcome").asText());
        assertEquals(404, get("/admin/decisions/" + UUID.randomUUID()).statusCode());

        HttpResponse<String> export = get("/admin/decisions/export?agent=" + q(agent) + "&limit=4");
        assertEquals(200, export.statusCode(), export.body());
        assertTrue(export.headers().firstValue("Content-Type").orElse("").startsWith("application/x-ndjson"));
        // Audit records with their arguments are kept by no cache (found by a new user's trial: max-age=60); no-store
        // overrides the Expires the file writer adds (RFC 9111 §5.3).
        assertEquals(List.of("no-store"), export.headers().allValues("Cache-Control"), export.headers().toString());
        List<String> lines = export.body().lines().toList();
        assertEquals(6, lines.size(), "every page of the search, not only the first");
        assertEquals(written.get(5).record(), lines.get(0), "the log line exactly as written");
    }

    @Test
    void aSearchBeyondTheScanBoundAnswersWhatItFoundAndAsksToNarrowTheRange() throws Exception {
        String agent = "busy-" + UUID.randomUUID();
        write(agent, 25, knownReason());
        JsonNode body = JSON.readTree(get("/admin/decisions?agent=" + q(agent) + "&tool=wiki_read").body());
        assertEquals(20, body.path("scanned").asInt());
        assertEquals(20, body.path("decisions").size());
        assertTrue(body.path("note").asText().contains("narrow the range"), body.toString());
        assertFalse(body.path("stoppedAt").asText().isEmpty());
    }

    @Test
    void badInputIsAFieldMessageNeverAServerError() throws Exception {
        String[][] cases = {
            {"from=yesterday", "from"},
            {"to=2026-13-01T00:00:00Z", "to"},
            {"from=2026-12-01T10:00:00", "from"},
            {"from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z", "from"},
            {"from=2000-01-01T00:00:00Z&to=2026-12-01T00:00:00Z", "to"},
            {"from=2000-01-01T00:00:00Z", "from"}, // a start alone runs to now: the start is what to change
            {"callerKind=robot", "callerKind"},
            {"outcome=maybe", "outcome"},
            {"reason=no.such.code", "reason"},
            {"limit=0", "limit"},
            {"limit=501", "limit"},
            {"limit=-1", "limit"},
            {"limit=99999999999", "limit"},
            {"cursor=not-a-cursor", "cursor"},
            {"cursor=" + "A".repeat(5000), "cursor"},
            {"agent=" + "a".repeat(600), "agent"},
            {"method=tools%2Fdelete", "method"},
            {"from=%01", "from"}, // a NUL (%00) is refused before, by QueryStringFilter
            // a name the search does not take would widen it silently; a name twice would leave the value a guess
            {"outcom=denied", "outcom"},
            {"Outcome=denied", "Outcome"},
            {"outcome%20=denied", "outcome "},
            {"decisionId=00000000-0000-4000-8000-000000000001", "decisionId"},
            {"tool=wiki_read&tool=wiki_write", "tool"},
            {"tool=&tool=", "tool"},
            {"limit=5&limit=5", "limit"},
            {"n" + "x".repeat(200) + "=1", "n" + "x".repeat(63) + "…"},
            // times Java or PostgreSQL cannot hold, or a day before them: once a 500, a 503 and a 400 on "body"
            {"to=-999999999-01-01T00:00:00Z", "to"},
            {"to=%2B999999999-12-31T23:59:59.999999999Z", "to"},
            {"from=%2B999999999-12-31T00:00:00Z&to=%2B999999999-12-31T23:59:59Z", "from"},
            {"to=%2B294277-01-01T00:00:00Z", "to"},
            {"to=%2B10000-01-01T00:00:00Z", "to"},
            {"from=1969-12-31T23:59:59Z", "from"},
            {"to=0000-01-01T00:00:00Z", "to"},
        };
        for (String[] c : cases) {
            HttpResponse<String> response = get("/admin/decisions?" + c[0]);
            assertEquals(400, response.statusCode(), c[0] + ": " + response.body());
            JsonNode body = JSON.readTree(response.body());
            assertEquals("invalid_fields", body.path("error").asText(), c[0]);
            assertTrue(body.path("invalid").toString().contains("\"" + c[1] + "\""), c[0] + ": " + body);
            assertEquals(400, get("/admin/decisions/export?" + c[0]).statusCode(), "export " + c[0]);
        }
        for (String[] c : new String[][] {{"stat=delivered", "stat"}, {"agent=a&agent=b", "agent"}}) {
            HttpResponse<String> response = get("/admin/notices/receipts?" + c[0]);
            assertEquals(400, response.statusCode(), c[0] + ": " + response.body());
            assertTrue(JSON.readTree(response.body()).path("invalid").toString().contains("\"" + c[1] + "\""),
                    c[0] + ": " + response.body());
        }
        String emoji = "a" + "\uD83D\uDE00".repeat(300);
        HttpResponse<String> cut = get("/admin/decisions?" + URLEncoder.encode(emoji, StandardCharsets.UTF_8) + "=1");
        assertEquals(400, cut.statusCode());
        assertEquals("a" + "\uD83D\uDE00".repeat(63) + "…", JSON.readTree(cut.body()).path("invalid").path(0).asText(),
                "a long name is cut between characters, never inside one");
        // the PEP's own codes are searchable like the policy's
        for (String code : List.of("rate_limited", "policy_unavailable", "capability_missing")) {
            assertEquals(200, get("/admin/decisions?reason=" + code).statusCode(), code);
        }
        assertEquals(200, get("/admin/decisions?from=1970-01-01T00:00:00Z&to=1970-01-02T00:00:00Z").statusCode());
        for (String id : List.of("not-a-uuid", "00000000-0000-0000-0000", "%3Cscript%3E", "1".repeat(300))) {
            HttpResponse<String> response = get("/admin/decisions/" + id);
            assertEquals(400, response.statusCode(), id + ": " + response.body());
            assertTrue(response.body().contains("decisionId"), response.body());
        }
        // A lookup by id and the audit of changes refuse stray and repeated parameters the same way.
        for (String[] c : new String[][] {
            {"/admin/decisions/00000000-0000-4000-8000-000000000001?verbose=1", "verbose"},
            {"/admin/decisions/00000000-0000-4000-8000-000000000001?x=1&x=2", "x"},
            {"/admin/audit?subjet=operator", "subjet"},
            {"/admin/audit?agent=a&agent=b", "agent"},
            {"/admin/audit?limit=5&limit=6", "limit"},
        }) {
            HttpResponse<String> response = get(c[0]);
            assertEquals(400, response.statusCode(), c[0] + ": " + response.body());
            JsonNode body = JSON.readTree(response.body());
            assertEquals("invalid_fields", body.path("error").asText(), c[0]);
            assertEquals(c[1], body.path("invalid").path(0).asText(), c[0] + ": " + body);
        }
        assertEquals("Not a parameter; this request takes none.", JSON.readTree(get(
                "/admin/decisions/00000000-0000-4000-8000-000000000001?verbose=1").body()).path("messages").path(0)
                .asText());
        assertEquals(404, get("/admin/decisions/00000000-0000-4000-8000-000000000001").statusCode());
    }

    /**
     * A parameter given without a value is refused, never read as no filter (a new user's trial:
     * {@code GET /admin/decisions?agent=} listed every agent's decisions): every parameter of the decisions search, its
     * export, the receipts search and the audit, given empty, blank, or without {@code =}, alone or beside a filled-in
     * one, is 400 {@code invalid_fields} naming it; all of a search's parameters given empty at once name each. Blank
     * is every character invisible: white space, a separator, a control or a format character (a new user's trial:
     * {@code ?agent=%C2%A0} and {@code ?agent=%E2%80%8B} listed nothing with 200 while {@code %E3%80%80} was refused).
     */
    @Test
    void aParameterGivenEmptyIsRefusedNeverReadAsNoFilter() throws Exception {
        Map<String, List<String>> searches = new LinkedHashMap<>();
        searches.put("/admin/decisions", DecisionQueries.PARAMETERS);
        searches.put("/admin/decisions/export", DecisionQueries.PARAMETERS);
        searches.put("/admin/notices/receipts", NoticeQueries.PARAMETERS);
        searches.put("/admin/audit", AuditAdminController.AuditQueries.PARAMETERS);
        for (Map.Entry<String, List<String>> search : searches.entrySet()) {
            for (String name : search.getValue()) {
                String filled = !name.equals("agent") ? "agent=a1"
                        : search.getKey().contains("decisions") ? "outcome=denied" : "limit=5";
                for (String query : List.of(name + "=", name + "=%20", name + "=%09%20", name, name + "=&" + filled,
                        filled + "&" + name + "=", name + "=%C2%A0", name + "=%E2%80%8B", name + "=%E3%80%80",
                        name + "=%0A", name + "=%E2%80%A8", name + "=%EF%BB%BF", name + "=%E2%80%AE",
                        name + "=%F3%A0%80%81", name + "=%E1%85%9F", name + "=%C2%A0%E2%80%8B%20&" + filled)) {
                    String path = search.getKey() + "?" + query;
                    HttpResponse<String> response = get(path);
                    assertEquals(400, response.statusCode(), path + ": " + response.body());
                    JsonNode body = JSON.readTree(response.body());
                    assertEquals("invalid_fields", body.path("error").asText(), path);
                    assertEquals(List.of(name), JSON.convertValue(body.path("invalid"), List.class), path);
                    assertEquals(QueryParameters.EMPTY, body.path("messages").path(0).asText(), path);
                }
            }
            String all = String.join("=&", search.getValue()) + "=";
            HttpResponse<String> response = get(search.getKey() + "?" + all);
            assertEquals(400, response.statusCode(), all + ": " + response.body());
            assertEquals(new TreeSet<>(search.getValue()), new TreeSet<>(JSON.convertValue(JSON.readTree(
                    response.body()).path("invalid"), List.class)), search.getKey() + "?" + all);
        }
        assertEquals(200, get("/admin/decisions?agent=a1&outcome=denied").statusCode(), "filled in, the search runs");
        for (String visible : List.of("a%C2%A0", "%E2%80%8Ba", "%CC%81", "%C2%B7", "%E2%80%AEabc")) {
            assertEquals(200, get("/admin/decisions?agent=" + visible).statusCode(), "a value with something to read: "
                    + visible);
        }
        assertEquals(200, get("/admin/notices/receipts?agent=a1&limit=5").statusCode());
        assertEquals(200, get("/admin/audit?agent=a1&limit=5").statusCode());
    }

    /**
     * A client that hangs up while an export streams (found by a new user's trial: {@code curl ... | head} logged two
     * ERRORs with stacks each time) leaves nothing at ERROR and no stack in the log, and the next export is whole.
     */
    @Test
    void aClientHangingUpMidExportLeavesNoErrorInTheLog() throws Exception {
        String agent = "agent-" + UUID.randomUUID();
        Instant end = Instant.now().minus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.MILLIS);
        List<StoredDecision> decisions = new ArrayList<>();
        for (int i = 0; i < 200; i++) { // ≈ 1.6 MB: far more than the socket buffers hold
            UUID id = UUID.randomUUID();
            decisions.add(new StoredDecision(new DecisionSummary(id, end.minusSeconds(200 - i), "replica-a",
                    "tools/call", Optional.of("wiki_read"), "thread", agent, Optional.of("t1"), Outcome.ALLOWED,
                    List.of(), Optional.of("rev-x"), Optional.of("default")), "{\"decision_id\":\"" + id
                    + "\",\"pad\":\"" + "x".repeat(8_000) + "\"}", Optional.empty(), false));
        }
        index.add(decisions);
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        root.addAppender(events);
        try {
            for (int round = 0; round < 3; round++) {
                try (Socket socket = new Socket("127.0.0.1", server.getPort())) {
                    socket.getOutputStream().write(("GET /admin/decisions/export?agent=" + q(agent)
                            + "&limit=10 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer admin-test-credential"
                            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    socket.getInputStream().readNBytes(300);
                    socket.setSoLinger(true, 0); // hang up hard, as a closed pipe does
                }
            }
            Thread.sleep(1_000);
        } finally {
            root.detachAppender(events);
        }
        List<ILoggingEvent> logged = List.copyOf(events.list);
        assertTrue(logged.stream().noneMatch(e -> e.getLevel() == Level.ERROR || e.getThrowableProxy() != null),
                logged.toString());
        HttpResponse<String> whole = get("/admin/decisions/export?agent=" + q(agent) + "&limit=50");
        assertEquals(200, whole.statusCode());
        assertEquals(200, whole.body().lines().count());
    }
}
