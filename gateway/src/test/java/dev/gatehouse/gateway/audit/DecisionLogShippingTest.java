package dev.gatehouse.gateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.gatehouse.gateway.audit.AuditFixtures.longPath;
import static dev.gatehouse.gateway.audit.AuditFixtures.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.gatehouse.gateway.audit.shipping.DecisionLogShipper;
import dev.gatehouse.gateway.audit.shipping.ShippingConfiguration;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.support.LoggedRecords;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decision log shipped to an OPA-compatible decision-log endpoint (WireMock) from its own files: every written
 * record arrives in OPA's event format, masked, as gzip JSON array POSTs, with the values its stand-ins name; faults
 * of the endpoint (5xx, 408/429, timeouts, a slow endpoint, a stop while a POST is in flight) lose nothing, a 4xx
 * batch is dropped and counted, and only shipped files leave before their retention age.
 */
class DecisionLogShippingTest {

    private static final String PATH = "/logs";

    @TempDir
    Path dir;

    private final WireMockServer endpoint = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void start() {
        endpoint.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        endpoint.stop();
    }

    private Path live() {
        return dir.resolve("decisions.jsonl");
    }

    private ShippingConfiguration configuration() {
        ShippingConfiguration configuration = new ShippingConfiguration();
        configuration.setUrl(endpoint.baseUrl() + PATH);
        configuration.setBatchDelay(Duration.ofMillis(20));
        configuration.setBatchMaxRecords(10);
        configuration.setMinBackoff(Duration.ofMillis(20));
        configuration.setMaxBackoff(Duration.ofMillis(200));
        configuration.setTimeout(Duration.ofSeconds(2));
        return configuration;
    }

    private DecisionLogShipper shipper(ShippingConfiguration configuration) throws IOException {
        DecisionLogShipper shipper = new DecisionLogShipper(configuration, live(), Map.of("id", "test-instance",
                "app", "gatehouse"), meters);
        open.add(shipper::close);
        shipper.start();
        return shipper;
    }

    private DecisionLog log(DecisionLogConfiguration configuration, DecisionLogSink sink) {
        DecisionLog log = new DecisionLog(configuration, Clock.systemUTC(), UnaryOperator.identity(), List.of(sink),
                meters);
        open.add(log::close);
        return log;
    }

    private DecisionLog log(DecisionLogSink sink) {
        return log(AuditFixtures.configuration(live()), sink);
    }

    /** Writes {@code n} records through the local decision log; each must be written (the call path). */
    private static List<String> write(DecisionLog log, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            DecisionRecord record = AuditFixtures.record(10);
            assertInstanceOf(LogResult.Written.class, log.record(record));
            ids.add(record.decisionId().toString());
        }
        return ids;
    }

    private List<String> localIds(DecisionLog log) throws IOException {
        return AuditFixtures.ids(AuditFixtures.readAll(log.files()));
    }

    private void okay() {
        endpoint.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(200)));
    }

    /** Every event of every POST answered 2xx so far, in order of arrival. */
    private List<JsonNode> taken() {
        List<JsonNode> events = new ArrayList<>();
        endpoint.getAllServeEvents().stream()
                .sorted((a, b) -> a.getRequest().getLoggedDate().compareTo(b.getRequest().getLoggedDate()))
                .filter(e -> e.getResponse().getStatus() / 100 == 2)
                .forEach(e -> events.addAll(events(e.getRequest())));
        return events;
    }

    private static List<JsonNode> events(LoggedRequest request) {
        byte[] body = request.getBody();
        try (InputStream in = body.length > 1 && (body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b
                ? new GZIPInputStream(new ByteArrayInputStream(body)) : new ByteArrayInputStream(body)) {
            List<JsonNode> events = new ArrayList<>();
            PolicyJson.MAPPER.readTree(in).forEach(events::add);
            return events;
        } catch (IOException e) {
            throw new AssertionError("a POST body is not a (gzip) JSON array", e);
        }
    }

    private Set<String> takenIds() {
        Set<String> ids = new LinkedHashSet<>();
        taken().forEach(e -> ids.add(e.path("decision_id").asText()));
        return ids;
    }

    private double counter(String name, String... tags) {
        Counter counter = meters.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("never happened: " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void everyWrittenRecordArrivesAsAnOpaEventInGzipJsonArrays() throws Exception {
        okay();
        DecisionLog log = log(shipper(configuration()));
        write(log, 25);
        List<String> local = localIds(log);
        await("all 25 records taken", () -> takenIds().size() == 25);

        assertEquals(local, List.copyOf(takenIds()), "every record once, in the order written");
        for (LoggedRequest request : endpoint.findAll(postRequestedFor(urlEqualTo(PATH)))) {
            assertEquals("gzip", request.getHeader("Content-Encoding"));
            assertTrue(request.getHeader("Content-Type").startsWith("application/json"));
            assertTrue(events(request).size() <= 10, "batch-max-records");
        }
        for (JsonNode event : taken()) {
            assertEquals("test-instance", event.path("labels").path("id").asText());
            assertEquals("gatehouse", event.path("labels").path("app").asText());
            assertEquals("gatehouse/authz/decision", event.path("path").asText());
            assertEquals("rev", event.path("bundles").path("gatehouse").path("revision").asText());
            assertFalse(event.path("result").path("allow").asBoolean(true));
            assertEquals("wiki_write", event.path("input").path("tool").asText());
            assertFalse(event.path("timestamp").asText().isEmpty());
            assertTrue(event.path("metrics").has("timer_eval_us"));
            assertEquals("/input/arguments/auth/apiToken", event.path("masked").path(0).asText());
            assertFalse(event.toString().contains("tok-SECRET"), "a masked value never leaves the gateway");
            assertFalse(event.has("caller") || event.has("allow") || event.has("reasons"), "only OPA's fields");
            assertFalse(event.has("values"), "nothing was long");
        }
        await("counted", () -> counter(DecisionLogShipper.SHIPPED) == 25);
        await("nothing pending", () -> meters.find(DecisionLogShipper.PENDING).gauge().value() == 0);
        assertTrue(Files.exists(LogFiles.shippedFile(live())), "the cursor is kept beside the log");
    }

    /**
     * Events carry the values their stand-ins name, each once per POST, so the service can put the evaluated input
     * back too; a reduced line is shipped as its whole record.
     */
    @Test
    void eventsCarryTheirValuesOncePerBatchAndReducedRecordsWhole() throws Exception {
        okay();
        DecisionLogConfiguration configuration = AuditFixtures.configuration(live());
        configuration.setMaxRecordBytes(DecisionLogConfiguration.MIN_RECORD_BYTES);
        DecisionLog log = log(configuration, shipper(configuration()));
        List<DecisionRecord> written = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            written.add(read(longPath()));
            assertInstanceOf(LogResult.Written.class, log.record(written.get(i)));
        }
        DecisionRecord reduced = AuditFixtures.record(4000);
        assertInstanceOf(LogResult.Written.class, log.record(reduced));
        assertTrue(Files.readString(live()).contains("\"reduced\""), "one line was reduced");
        await("all 13 taken", () -> takenIds().size() == 13);

        for (LoggedRequest request : endpoint.findAll(postRequestedFor(urlEqualTo(PATH)))) {
            Map<String, JsonNode> values = new HashMap<>();
            for (JsonNode event : events(request)) {
                event.path("values").forEach(entry -> LoggedRecords.entry(entry, values)); // once per POST
            }
            for (JsonNode event : events(request)) {
                ObjectNode asRecord = event.deepCopy();
                ArrayNode redacted = asRecord.putArray("redacted");
                event.path("masked").forEach(pointer -> {
                    if (!pointer.asText().startsWith("/input/arguments/auth")) {
                        redacted.add(pointer);
                    }
                });
                JsonNode restored = LoggedRecords.restore(asRecord, values);
                String id = event.get("decision_id").asText();
                DecisionRecord record = written.stream().filter(r -> r.decisionId().toString().equals(id))
                        .findFirst().orElse(reduced);
                JsonNode expected = DecisionInputMapper.forCall(record.input());
                if (record == reduced) {
                    ((ObjectNode) expected.at("/arguments/auth")).put("apiToken", "**masked**");
                    assertEquals(20, restored.at("/result/reasons").size(), "the whole record, not the line");
                }
                assertEquals(expected, restored.get("input"), id);
            }
        }
    }

    /** 5xx, 408 and 429 are faults of the endpoint: the cursor stays and the batch is sent again after a backoff. */
    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504, 408, 429})
    void retryableAnswersKeepTheBatchUntilTheEndpointTakesIt(int status) throws Exception {
        endpoint.stubFor(post(urlEqualTo(PATH)).inScenario("flaky").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(status)).willSetStateTo("still"));
        endpoint.stubFor(post(urlEqualTo(PATH)).inScenario("flaky").whenScenarioStateIs("still")
                .willReturn(aResponse().withStatus(status)).willSetStateTo("up"));
        endpoint.stubFor(post(urlEqualTo(PATH)).inScenario("flaky").whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(200)));
        DecisionLog log = log(shipper(configuration()));
        write(log, 5);
        await("taken after two refusals", () -> takenIds().size() == 5);
        assertEquals(Set.copyOf(localIds(log)), takenIds());
        assertEquals(2, counter(DecisionLogShipper.UPLOADS, "outcome", (status / 100) + "xx"));
        assertEquals(0, counter(DecisionLogShipper.DROPPED, "reason", "rejected"));
    }

    @Test
    void aTimedOutPostIsSentAgainAndNothingIsLost() throws Exception {
        ShippingConfiguration configuration = configuration();
        configuration.setTimeout(Duration.ofMillis(300));
        endpoint.stubFor(post(urlEqualTo(PATH)).inScenario("slow").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(200).withFixedDelay(3_000)).willSetStateTo("fast"));
        endpoint.stubFor(post(urlEqualTo(PATH)).inScenario("slow").whenScenarioStateIs("fast")
                .willReturn(aResponse().withStatus(200)));
        DecisionLog log = log(shipper(configuration));
        write(log, 7);
        await("taken after the timeout", () -> counter(DecisionLogShipper.SHIPPED) >= 7);
        // The timed-out POST may still have reached the endpoint: delivery is at least once, by decision_id.
        assertEquals(Set.copyOf(localIds(log)), takenIds());
        assertTrue(counter(DecisionLogShipper.UPLOADS, "outcome", "timeout") >= 1);
    }

    /** A slow endpoint never slows the call path: every record is written locally at once and shipped later. */
    @Test
    void aSlowEndpointDelaysShippingNotCalls() throws Exception {
        endpoint.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(200).withFixedDelay(300)));
        DecisionLog log = log(shipper(configuration()));
        write(log, 60);
        assertEquals(60, localIds(log).size(), "all written locally while the endpoint was still busy");
        await("all 60 taken", () -> takenIds().size() == 60);
        assertEquals(localIds(log), List.copyOf(takenIds()));
    }

    /**
     * Restart mid-batch: the first shipper stops while its POST hangs; the gateway writes on, rotating; a new
     * shipper over the same files resumes at the cursor and sends everything, in order.
     */
    @Test
    void aNewShipperResumesAtTheCursor() throws Exception {
        ShippingConfiguration configuration = configuration();
        configuration.setTimeout(Duration.ofMillis(500));
        endpoint.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(200).withFixedDelay(10_000)));
        DecisionLogShipper first = shipper(configuration);
        DecisionLogConfiguration small = AuditFixtures.configuration(live());
        small.setMaxFileBytes(4 * 1024);
        small.setMaxFiles(100);
        DecisionLog log = log(small, first);
        write(log, 23);
        await("a POST in flight", () -> !endpoint.findAll(postRequestedFor(urlEqualTo(PATH))).isEmpty());
        log.close();
        first.close();
        assertEquals(0, counter(DecisionLogShipper.SHIPPED));
        assertTrue(log.files().size() > 2, "rotated meanwhile: " + log.files());

        endpoint.resetAll();
        okay();
        DecisionLogShipper second = shipper(configuration);
        DecisionLog again = log(small, second);
        List<String> more = write(again, 5);
        await("everything, the first run's too", () -> takenIds().size() == 28);
        List<String> all = localIds(again);
        assertEquals(all, List.copyOf(takenIds()));
        assertTrue(all.containsAll(more));
    }

    /** A 4xx other than 408/429 will never be taken: dropped and counted, not retried forever. */
    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 413})
    void aRefusedBatchIsDroppedAndCounted(int status) throws Exception {
        endpoint.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(status)));
        DecisionLog log = log(shipper(configuration()));
        write(log, 4);
        await("dropped", () -> counter(DecisionLogShipper.DROPPED, "reason", "rejected") == 4);
        assertEquals(1, endpoint.findAll(postRequestedFor(urlEqualTo(PATH))).size(), "sent once");
    }

    /** A line of an older file that is not a record is counted and skipped; the records around it are shipped. */
    @Test
    void aLineThatIsNotJsonIsCountedNotShipped() throws Exception {
        okay();
        Path older = dir.resolve("decisions-20261201T093000Z-0001.jsonl");
        DecisionLog first = new DecisionLog(AuditFixtures.configuration(older));
        DecisionRecord good = AuditFixtures.record(10);
        first.record(good);
        first.close();
        Files.writeString(older, Files.readString(older) + "not json\n");

        DecisionLog log = log(shipper(configuration()));
        List<String> later = write(log, 1);
        await("both good ones shipped", () -> counter(DecisionLogShipper.SHIPPED) == 2);
        assertEquals(List.of(good.decisionId().toString(), later.get(0)), List.copyOf(takenIds()));
        assertEquals(1, counter(DecisionLogShipper.DROPPED, "reason", "unreadable"));
    }

    /**
     * With shipping on, a budget of 2 files and a file per record: each shipped file leaves quietly when the budget
     * needs room, every record reaches the service, none is counted as evicted. With the service down, the same
     * budget must delete records that were never shipped: loudly.
     */
    @Test
    void shippedFilesLeaveQuietlyAndUnshippedOnesOnlyLoudly() throws Exception {
        okay();
        DecisionLogConfiguration tiny = AuditFixtures.configuration(live());
        tiny.setMaxFileBytes(1);
        tiny.setMaxFiles(2);
        DecisionLog log = log(tiny, shipper(configuration()));
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            written.addAll(write(log, 1));
            await("shipped " + written.size(), () -> takenIds().size() == written.size());
        }
        assertEquals(written, List.copyOf(takenIds()));
        assertTrue(log.files().size() <= 3, log.files().toString());
        assertEquals(0, counter(LogRetention.EVICTED));
        assertFalse(log.retention().degraded());

        endpoint.resetAll();
        endpoint.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(503)));
        write(log, 6);
        assertTrue(counter(LogRetention.EVICTED) > 0, "records neither shipped nor expired were deleted");
        assertTrue(log.retention().degraded());
    }
}
