package dev.gatehouse.gateway.telemetry;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.support.HostStubs;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Real MCP calls over HTTP through the whole gateway (transport pipeline, gate, embedded PDP, decision log, facades
 * against WireMock services), then a scrape of {@code GET /prometheus}: the counts match the calls made, and the
 * client's W3C {@code traceparent} is carried through a span per step to the facade request.
 */
@MicronautTest(transactional = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperabilityTest implements TestPropertyProvider {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";
    private static final String META = ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private final WireMockServer services = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;
    @Inject
    AgentSettingsStore settings;
    @Inject
    PolicyDecisionPoint pdp;
    @Inject
    InMemorySpanExporter spans;
    @Inject
    DecisionLog decisions;

    @Override
    public Map<String, String> getProperties() {
        services.start();
        HostStubs.liveThreadT1(services);
        services.stubFor(WireMock.get(urlPathEqualTo("/wiki/v1/pages")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json").withHeader("Api-Version", "1")
                .withBody("{\"error\":{\"code\":\"not_found\",\"message\":\"no such page\"}}")));
        Map<String, String> properties = new HashMap<>();
        properties.put("micronaut.server.port", "-1");
        properties.put("gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                + "/bundle.tar.gz");
        properties.put("gatehouse.audit.path", "target/test-decisions/operability-" + System.nanoTime() + ".jsonl");
        properties.put("gatehouse.admin.credential", "admin-test-credential");
        properties.put("gatehouse.services.host.url", services.baseUrl());
        properties.put("gatehouse.services.host.credential", "service-credential");
        properties.put("gatehouse.services.wiki.url", services.baseUrl());
        properties.put("gatehouse.services.wiki.credential", "service-credential");
        properties.put("test.in-memory-spans", "true");
        services.stubFor(WireMock.post(urlPathEqualTo("/logs")).willReturn(aResponse().withStatus(200)));
        properties.put("gatehouse.audit.shipping.url", services.baseUrl() + "/logs");
        properties.put("gatehouse.audit.shipping.batch-delay", "50ms");
        return properties;
    }

    @AfterAll
    void stop() {
        services.stop();
    }

    private RawHttp.Response call(String token, String tool, String arguments, String... extra) throws IOException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + META + "}}";
        String[] headers = new String[extra.length + 4];
        headers[0] = "Authorization: Bearer " + token;
        headers[1] = "Mcp-Method: tools/call";
        headers[2] = "Mcp-Name: " + tool;
        headers[3] = "MCP-Protocol-Version: 2026-07-28";
        System.arraycopy(extra, 0, headers, 4, extra.length);
        return RawHttp.post(server.getPort(), body, headers);
    }

    private String get(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return response.body();
    }

    /** The value of one sample line {@code name{labels} value}; the labels must all be present. */
    private static double sample(String scrape, String name, String... labels) {
        for (String line : scrape.split("\n")) {
            if (!line.startsWith(name + "{") && !line.startsWith(name + " ")) {
                continue;
            }
            boolean all = true;
            for (String label : labels) {
                all &= line.contains(label);
            }
            if (all) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Double.NaN;
    }

    @Test
    void theScrapeCountsTheCallsMadeAndTheTraceReachesTheFacade() throws Exception {
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(true, false)));
        String token = SessionTokens.mint();
        sessions.put(token, new AgentSession("s-ops-" + SessionTokens.newId(), "local", "t1", "ps-1", "p-1", "a1",
                "proj-1", Optional.empty(), "codex"));

        for (int i = 0; i < 3; i++) {
            RawHttp.Response allowed = call(token, "wiki_read", "{\"path\":\"page.md\"}",
                    "traceparent: 00-" + TRACE_ID + "-" + CLIENT_SPAN + "-01");
            assertEquals(200, allowed.status(), allowed.body());
        }
        for (int i = 0; i < 2; i++) {
            assertEquals(200, call(token, "no_such_tool", "{}").status());
        }
        assertEquals(200, call(token, "wiki_write", "{\"path\":\"page.md\",\"content\":\"x\"}").status());
        assertEquals(401, call("not-a-token", "wiki_read", "{\"path\":\"page.md\"}").status());

        String scrape = get("/prometheus");
        assertEquals(3, sample(scrape, "gatehouse_decisions_total", "method=\"tools/call\"", "outcome=\"allow\"",
                "tool=\"wiki_read\""), scrape);
        assertEquals(2, sample(scrape, "gatehouse_decisions_total", "outcome=\"deny\"", "tool=\"unknown\""));
        assertEquals(2, sample(scrape, "gatehouse_decision_reasons_total", "reason=\"unknown_tool\"",
                "tool=\"unknown\""));
        assertEquals(1, sample(scrape, "gatehouse_decisions_total", "outcome=\"deny\"", "tool=\"wiki_write\""));
        assertFalse(scrape.contains("no_such_tool"), "a caller's name never becomes a series");
        assertEquals(6, sample(scrape, "gatehouse_decision_latency_seconds_count", "method=\"tools/call\""));
        assertTrue(scrape.contains("gatehouse_decision_latency_seconds_bucket{"), "a histogram");
        assertEquals(6, sample(scrape, "gatehouse_gate_step_seconds_count", "step=\"decision\""));
        assertEquals(3, sample(scrape, "gatehouse_gate_step_seconds_count", "step=\"handler\""));
        assertEquals(3, sample(scrape, "gatehouse_facade_call_seconds_count", "service=\"wiki\"",
                "outcome=\"4xx\""));
        assertTrue(sample(scrape, "gatehouse_facade_call_seconds_count", "service=\"host\"", "outcome=\"2xx\"") >= 1);
        assertEquals(7, sample(scrape, "gatehouse_transport_step_seconds_count", "step=\"origin\"",
                "outcome=\"passed\""));
        assertEquals(1, sample(scrape, "gatehouse_transport_step_seconds_count", "step=\"authentication\"",
                "outcome=\"rejected\""));
        assertTrue(scrape.contains("gatehouse_pdp_queue_wait_seconds"), "PDP queue wait");
        assertEquals(0, sample(scrape, "gatehouse_mcp_in_flight"), "back to 0 after the calls");
        assertTrue(sample(scrape, "gatehouse_sessions") >= 1);
        assertEquals(1, sample(scrape, "gatehouse_pdp_healthy", "engine=\"embedded\""));
        String revision = pdp.status().bundleRevision().orElseThrow();
        assertEquals(1, sample(scrape, "gatehouse_bundle_revision", "revision=\"" + revision + "\""), scrape);

        // Traces: the facade request carries a traceparent of the client's trace, naming the facade span.
        List<LoggedRequest> wikiReads = services.findAll(getRequestedFor(urlPathEqualTo("/wiki/v1/pages"))
                .withHeader("traceparent", matching("00-" + TRACE_ID + "-[0-9a-f]{16}-01")));
        assertEquals(3, wikiReads.size());
        List<SpanData> trace = spans.getFinishedSpanItems().stream()
                .filter(s -> s.getTraceId().equals(TRACE_ID)).toList();
        SpanData root = trace.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
        assertEquals("POST /mcp", root.getName());
        assertEquals(CLIENT_SPAN, root.getParentSpanId());
        for (String step : List.of("transport.origin", "transport.authentication", "transport.era", "gate.facts",
                "gate.arguments", "gate.decision", "gate.quota", "gate.decision-log", "gate.enforce", "gate.handler",
                "facade wiki")) {
            assertEquals(3, trace.stream().filter(s -> s.getName().equals(step)).count(), step);
        }
        Matcher sent = Pattern.compile("00-" + TRACE_ID + "-([0-9a-f]{16})-01")
                .matcher(wikiReads.get(0).getHeader("traceparent"));
        assertTrue(sent.matches());
        SpanData facade = trace.stream().filter(s -> s.getSpanId().equals(sent.group(1))).findFirst().orElseThrow();
        assertEquals("facade wiki", facade.getName());
        assertEquals(SpanKind.CLIENT, facade.getKind());
        assertEquals(404L, facade.getAttributes().get(
                io.opentelemetry.api.common.AttributeKey.longKey("http.response.status_code")));

        // Decision logs shipped: every locally logged decision reaches the decision-log endpoint, by decision_id.
        Set<String> local = new HashSet<>();
        for (String line : Files.readAllLines(decisions.file())) {
            local.add(JSON.readTree(line).path("decision_id").asText());
        }
        assertEquals(6, local.size());
        long until = System.nanoTime() + 30_000_000_000L;
        while (!shipped().containsAll(local) && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertEquals(local, shipped());

        // A concurrent load: every call counted, in flight back to 0.
        java.util.concurrent.ExecutorService load = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<Integer>> statuses = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                statuses.add(load.submit(() -> call(token, "no_such_tool", "{}").status()));
            }
            for (java.util.concurrent.Future<Integer> status : statuses) {
                assertEquals(200, status.get());
            }
        } finally {
            load.shutdown();
        }
        String after = get("/prometheus");
        assertEquals(42, sample(after, "gatehouse_decisions_total", "outcome=\"deny\"", "tool=\"unknown\""));
        assertEquals(0, sample(after, "gatehouse_mcp_in_flight"), "back to 0 after the load");
    }

    /** decision_id of every event POSTed to the decision-log endpoint. */
    private Set<String> shipped() throws IOException {
        Set<String> ids = new HashSet<>();
        for (LoggedRequest request : services.findAll(WireMock.postRequestedFor(urlPathEqualTo("/logs")))) {
            byte[] body = request.getBody();
            boolean gzip = body.length > 1 && (body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b;
            try (java.io.InputStream in = gzip ? new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(body))
                    : new java.io.ByteArrayInputStream(body)) {
                JSON.readTree(in).forEach(event -> ids.add(event.path("decision_id").asText()));
            }
        }
        return ids;
    }

    @Test
    void probes() throws Exception {
        JsonNode liveness = JSON.readTree(get("/health/liveness"));
        assertEquals("UP", liveness.path("status").asText());
        JsonNode readiness = JSON.readTree(get("/health/readiness"));
        assertEquals("UP", readiness.path("status").asText());
        assertFalse(readiness.path("draining").asBoolean(true));
        assertEquals("UP", JSON.readTree(get("/health")).path("status").asText(), "the old endpoint still answers");
    }
}
