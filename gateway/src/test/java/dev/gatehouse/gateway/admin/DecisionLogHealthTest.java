package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.audit.LogResult;
import dev.gatehouse.gateway.audit.shipping.IndexFeed;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.support.Facts;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The running gateway says when its decision-log budget costs records: with a deliberately tiny budget (one rotated
 * file of one record), {@code /health} turns DEGRADED (still 200, and readiness stays up: decisions go on) and the
 * Prometheus scrape counts every record deleted although neither shipped nor past its retention age. It also shows
 * how its feed into the decision index stands.
 */
class DecisionLogHealthTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static HttpResponse<String> get(EmbeddedServer server, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aTinyBudgetTurnsHealthDegradedAndCountsWhatItDeletes(@TempDir Path dir) throws Exception {
        try (EmbeddedServer server = start(dir, Map.of("gatehouse.audit.max-file-bytes", "1",
                "gatehouse.audit.max-files", "1"))) {
            JsonNode before = JSON.readTree(get(server, "/health").body());
            assertEquals("UP", before.path("status").asText(), before.toString());
            assertEquals("UP", before.path("decisionLog").path("status").asText());

            DecisionLog log = server.getApplicationContext().getBean(DecisionLog.class);
            Decision deny = new Decision(false, List.of(new Decision.Reason("schema", "no")), Obligations.NONE,
                    "rev", 1);
            for (int i = 0; i < 4; i++) { // a file each: one kept, the live one, two deleted
                assertInstanceOf(LogResult.Written.class, log.record(DecisionRecord.forCall(
                        Facts.call("wiki_read", Map.of("path", "page.md")), new PolicyOutcome.Decided<>(deny))));
            }

            HttpResponse<String> health = get(server, "/health");
            assertEquals(200, health.statusCode(), health.body());
            JsonNode body = JSON.readTree(health.body());
            assertEquals("DEGRADED", body.path("status").asText(), health.body());
            assertEquals("DEGRADED", body.path("decisionLog").path("status").asText());
            assertEquals("decision_log_budget", body.path("decisionLog").path("fault").path("code").asText());
            assertEquals(2, body.path("decisionLog").path("evictedRecords").asInt());
            assertEquals(1, body.path("decisionLog").path("maxFiles").asInt());
            assertEquals(200, get(server, "/health/readiness").statusCode(), "decisions go on: still ready");

            Matcher counted = Pattern.compile("(?m)^gatehouse_decision_log_evicted_records_total(\\{[^}]*})? (\\S+)$")
                    .matcher(get(server, "/prometheus").body());
            assertTrue(counted.find(), "the counter is scraped");
            assertEquals(2.0, Double.parseDouble(counted.group(2)));
        }
    }

    /**
     * The decision index's feed is shown as detail: {@code indexing} with how many decisions it wrote, then
     * {@code failing} with its last error after a batch could not be read (status and readiness unchanged: decisions
     * go on), then {@code indexing} again once the next batch is written.
     */
    @Test
    void theIndexFeedIsShownAndAFailingOneChangesNeitherStatusNorReadiness(@TempDir Path dir) throws Exception {
        try (EmbeddedServer server = start(dir, Map.of())) {
            DecisionLog log = server.getApplicationContext().getBean(DecisionLog.class);
            for (int i = 0; i < 3; i++) {
                assertInstanceOf(LogResult.Written.class, log.record(deny()));
            }
            JsonNode index = awaitIndex(server, body -> body.path("indexed").asLong() >= 3);
            assertEquals("indexing", index.path("state").asText(), index.toString());
            assertTrue(index.has("since") && !index.has("lastError"), index.toString());

            IndexFeed feed = server.getApplicationContext().getBean(IndexFeed.class);
            feed.status().failed("reading the decision log: a line is not JSON", java.time.Instant.now());
            HttpResponse<String> health = get(server, "/health");
            JsonNode body = JSON.readTree(health.body());
            assertEquals(200, health.statusCode(), health.body());
            assertEquals("UP", body.path("status").asText(), health.body());
            assertEquals("failing", body.at("/decisionIndex/state").asText(), health.body());
            assertEquals("reading the decision log: a line is not JSON",
                    body.at("/decisionIndex/lastError/detail").asText(), health.body());
            assertEquals(200, get(server, "/health/readiness").statusCode(), "decisions go on: still ready");

            assertInstanceOf(LogResult.Written.class, log.record(deny()));
            index = awaitIndex(server, now -> "indexing".equals(now.path("state").asText()));
            assertTrue(index.path("indexed").asLong() >= 4, index.toString());
            assertTrue(index.has("lastError"), "the last error is kept after recovery: " + index);
        }
    }

    /** With the index off there is no feed to show: {@code /health} answers without {@code decisionIndex}. */
    @Test
    void withTheIndexOffHealthHasNoIndexFeed(@TempDir Path dir) throws Exception {
        try (EmbeddedServer server = start(dir, Map.of("gatehouse.decision-index.enabled", "false"))) {
            HttpResponse<String> health = get(server, "/health");
            assertEquals(200, health.statusCode(), health.body());
            JsonNode body = JSON.readTree(health.body());
            assertEquals("UP", body.path("status").asText(), health.body());
            assertTrue(body.has("hostWatch") && !body.has("decisionIndex"), health.body());
        }
    }

    /** A gateway with its store and decision log under {@code dir}, and {@code settings} on top. */
    private static EmbeddedServer start(Path dir, Map<String, Object> settings) {
        Map<String, Object> all = new java.util.HashMap<>(Map.of(
                "micronaut.server.port", "-1",
                "gatehouse.database.data-dir", dir.resolve("postgres").toString(),
                "gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                        + "/bundle.tar.gz",
                "gatehouse.audit.path", dir.resolve("logs/decisions.jsonl").toString()));
        all.putAll(settings);
        return ApplicationContext.run(EmbeddedServer.class, all, "test");
    }

    private static DecisionRecord deny() {
        Decision deny = new Decision(false, List.of(new Decision.Reason("schema", "no")), Obligations.NONE, "rev", 1);
        return DecisionRecord.forCall(Facts.call("wiki_read", Map.of("path", "page.md")),
                new PolicyOutcome.Decided<>(deny));
    }

    /** {@code /health}'s {@code decisionIndex} once {@code done} holds of it, waiting at most 30 s. */
    private static JsonNode awaitIndex(EmbeddedServer server, java.util.function.Predicate<JsonNode> done)
            throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            JsonNode index = JSON.readTree(get(server, "/health").body()).path("decisionIndex");
            if (done.test(index)) {
                return index;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("decisionIndex never got there: " + index);
            }
            Thread.sleep(50);
        }
    }
}
