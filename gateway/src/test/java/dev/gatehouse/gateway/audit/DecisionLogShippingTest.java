package dev.gatehouse.gateway.audit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.gatehouse.gateway.audit.shipping.DecisionLogShipper;
import dev.gatehouse.gateway.audit.shipping.ShippingConfiguration;
import dev.gatehouse.gateway.policy.PolicyJson;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decision log shipped to an OPA-compatible decision-log endpoint (WireMock): every written record arrives in
 * OPA's event format, masked, as gzip JSON array POSTs; faults of the endpoint (5xx, 408/429, timeouts, a slow
 * endpoint, a stop while a POST is in flight) lose nothing, a 4xx batch is dropped and counted, and the bounded
 * buffer and spill directory count what they drop.
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

    private ShippingConfiguration configuration() {
        ShippingConfiguration configuration = new ShippingConfiguration();
        configuration.setUrl(endpoint.baseUrl() + PATH);
        configuration.setSpillDir(dir.resolve("spill").toString());
        configuration.setBatchDelay(Duration.ofMillis(20));
        configuration.setBatchMaxRecords(10);
        configuration.setMinBackoff(Duration.ofMillis(20));
        configuration.setMaxBackoff(Duration.ofMillis(200));
        configuration.setTimeout(Duration.ofSeconds(2));
        return configuration;
    }

    private DecisionLogShipper shipper(ShippingConfiguration configuration, boolean start) throws IOException {
        DecisionLogShipper shipper = new DecisionLogShipper(configuration, Map.of("id", "test-instance",
                "app", "gatehouse"), meters);
        open.add(shipper::close);
        if (start) {
            shipper.start();
        }
        return shipper;
    }

    private DecisionLog log(DecisionLogSink sink) {
        DecisionLog log = new DecisionLog(AuditFixtures.configuration(dir.resolve("decisions.jsonl")), List.of(sink));
        open.add(log::close);
        return log;
    }

    /** Writes {@code n} records through the local decision log; each must be written (the call path). */
    private static void write(DecisionLog log, int n) {
        for (int i = 0; i < n; i++) {
            assertInstanceOf(LogResult.Written.class, log.record(AuditFixtures.record(10)));
        }
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

    private long spilled() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("spill"))) {
            return files.count();
        }
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
        DecisionLog log = log(shipper(configuration(), true));
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
        }
        await("counted", () -> counter(DecisionLogShipper.SHIPPED) == 25);
        assertEquals(0, spilled());
        assertEquals(0, meters.find(DecisionLogShipper.PENDING).gauge().value());
    }

    /** 5xx, 408 and 429 are faults of the endpoint: the batch stays and is sent again after a backoff. */
    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504, 408, 429})
    void retryableAnswersKeepTheBatchUntilTheEndpointTakesIt(int status) throws Exception {
        endpoint.stubFor(post(urlEqualTo(PATH)).inScenario("flaky").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(status)).willSetStateTo("still"));
        endpoint.stubFor(post(urlEqualTo(PATH)).inScenario("flaky").whenScenarioStateIs("still")
                .willReturn(aResponse().withStatus(status)).willSetStateTo("up"));
        endpoint.stubFor(post(urlEqualTo(PATH)).inScenario("flaky").whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(200)));
        DecisionLog log = log(shipper(configuration(), true));
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
        DecisionLog log = log(shipper(configuration, true));
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
        DecisionLog log = log(shipper(configuration(), true));
        write(log, 60);
        assertEquals(60, localIds(log).size(), "all written locally while the endpoint was still busy");
        await("all 60 taken", () -> takenIds().size() == 60);
        assertEquals(localIds(log), List.copyOf(takenIds()));
    }

    /**
     * Restart mid-batch: the first shipper stops while its POST hangs and more batches wait; a new shipper over the
     * same spill directory sends everything the first left.
     */
    @Test
    void aNewShipperSendsWhatTheStoppedOneLeft() throws Exception {
        ShippingConfiguration configuration = configuration();
        configuration.setTimeout(Duration.ofMillis(500));
        endpoint.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(200).withFixedDelay(10_000)));
        DecisionLogShipper first = shipper(configuration, true);
        DecisionLog log = log(first);
        write(log, 23);
        await("a POST in flight", () -> !endpoint.findAll(postRequestedFor(urlEqualTo(PATH))).isEmpty());
        log.close();
        first.close();
        assertTrue(spilled() >= 3, "23 records in batches of 10 wait on disk");
        assertEquals(0, counter(DecisionLogShipper.SHIPPED));

        endpoint.resetAll();
        okay();
        shipper(configuration, true);
        await("everything the first left", () -> takenIds().size() == 23);
        assertEquals(localIds(log), List.copyOf(takenIds()));
        await("spill directory emptied", () -> {
            try {
                return spilled() == 0;
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** A 4xx other than 408/429 will never be taken: dropped and counted, not retried forever. */
    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 413})
    void aRefusedBatchIsDroppedAndCounted(int status) throws Exception {
        endpoint.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(status)));
        DecisionLog log = log(shipper(configuration(), true));
        write(log, 4);
        await("dropped", () -> counter(DecisionLogShipper.DROPPED, "reason", "rejected") == 4);
        assertEquals(1, endpoint.findAll(postRequestedFor(urlEqualTo(PATH))).size(), "sent once");
        assertEquals(0, spilled());
    }

    @Test
    void aFullBufferAndAFullSpillDirectoryCountTheirDrops() throws Exception {
        okay();
        ShippingConfiguration small = configuration();
        small.setBufferRecords(3);
        DecisionLogShipper notStarted = shipper(small, false);
        byte[] line = lineOf(AuditFixtures.record(10));
        for (int i = 0; i < 5; i++) {
            notStarted.written(line);
        }
        assertEquals(2, counter(DecisionLogShipper.DROPPED, "reason", "buffer_full"));
        notStarted.start();
        await("the 3 buffered shipped", () -> counter(DecisionLogShipper.SHIPPED) == 3);
        notStarted.close();

        ShippingConfiguration tiny = configuration();
        tiny.setSpillDir(dir.resolve("tiny").toString());
        tiny.setSpillMaxBytes(1);
        DecisionLog log = log(shipper(tiny, true));
        write(log, 6);
        await("spill_full counted", () -> counter(DecisionLogShipper.DROPPED, "reason", "spill_full") == 6);
        assertEquals(3, counter(DecisionLogShipper.SHIPPED), "nothing more was sent");
    }

    @Test
    void aLineThatIsNotJsonIsCountedNotShipped() throws Exception {
        okay();
        DecisionLogShipper shipper = shipper(configuration(), true);
        shipper.written("not json\n".getBytes(StandardCharsets.UTF_8));
        shipper.written(lineOf(AuditFixtures.record(10)));
        await("the good one shipped", () -> counter(DecisionLogShipper.SHIPPED) == 1);
        assertEquals(1, counter(DecisionLogShipper.DROPPED, "reason", "unreadable"));
    }

    private byte[] lineOf(DecisionRecord record) throws IOException {
        Path file = dir.resolve("one-" + record.decisionId() + ".jsonl");
        DecisionLog single = new DecisionLog(AuditFixtures.configuration(file));
        try {
            assertInstanceOf(LogResult.Written.class, single.record(record));
        } finally {
            single.close();
        }
        return Files.readAllBytes(file);
    }
}
