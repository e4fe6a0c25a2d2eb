package dev.gatehouse.gateway.lifecycle;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown through the real server stop: a call in flight (its wiki read takes a while) completes with its
 * result; while it drains, readiness is 503 and a new {@code /mcp} request gets 503 with {@code Retry-After} and a
 * retryable JSON-RPC error; then the server stops.
 */
class DrainTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private static RawHttp.Response call(int port, String token) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\","
                + "\"arguments\":{\"path\":\"page.md\"}" + META + "}}";
        return RawHttp.post(port, body, "Authorization: Bearer " + token, "Mcp-Method: tools/call",
                "Mcp-Name: wiki_read", "MCP-Protocol-Version: 2026-07-28");
    }

    @Test
    void aStopDrainsTheCallInFlightAndRefusesNewOnesRetryably() throws Exception {
        WireMockServer services = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
        services.start();
        try {
            services.stubFor(WireMock.get(urlPathEqualTo("/host/v1/threads/t1")).willReturn(aResponse()
                    .withStatus(200).withHeader("Content-Type", "application/json").withHeader("Api-Version", "1")
                    .withBody("{\"threadId\":\"t1\",\"title\":\"t\",\"archived\":false,\"runtimeMode\":"
                            + "\"full-access\",\"interactionMode\":\"default\",\"activeRunId\":\"run-1\","
                            + "\"providerInstanceId\":\"p-1\",\"projectId\":\"demo\",\"messages\":[]}")));
            services.stubFor(WireMock.get(urlPathEqualTo("/wiki/v1/pages")).willReturn(aResponse().withStatus(404)
                    .withFixedDelay(3_000).withHeader("Content-Type", "application/json").withHeader("Api-Version", "1")
                    .withBody("{\"error\":{\"code\":\"not_found\",\"message\":\"no such page\"}}")));
            Map<String, Object> properties = new HashMap<>();
            properties.put("micronaut.server.port", "-1");
            properties.put("gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir",
                    "../target/bundle") + "/bundle.tar.gz");
            properties.put("gatehouse.audit.path", "target/test-decisions/drain.jsonl");
            properties.put("gatehouse.services.host.url", services.baseUrl());
            properties.put("gatehouse.services.host.credential", "service-credential");
            properties.put("gatehouse.services.wiki.url", services.baseUrl());
            properties.put("gatehouse.services.wiki.credential", "service-credential");
            properties.put("gatehouse.drain.deadline", "60s");
            EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, properties, "test");
            int port = server.getPort();
            ApplicationContext context = server.getApplicationContext();
            CallTracker calls = context.getBean(CallTracker.class);
            context.getBean(AgentSettingsStore.class).put("a1", new AgentSettings(false,
                    new AgentSettings.Project(false, Optional.empty()), new AgentSettings.Wiki(true, false)));
            String token = SessionTokens.mint();
            context.getBean(SessionStore.class).put(token, new AgentSession("s-drain", "local", "t1", "ps-1", "p-1",
                    "a1", "proj-1", Optional.empty(), "codex"));

            CompletableFuture<RawHttp.Response> inFlight = CompletableFuture.supplyAsync(() -> {
                try {
                    return call(port, token);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            while (calls.inFlight() == 0) {
                Thread.sleep(10);
            }
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(server::stop);
            while (!calls.draining()) {
                Thread.sleep(10);
            }

            RawHttp.Response refused = call(port, token);
            assertEquals(503, refused.status(), refused.body());
            assertEquals("1", refused.headers().get("retry-after"));
            JsonNode error = JSON.readTree(refused.body()).path("error");
            assertEquals(-32603, error.path("code").asInt());
            assertTrue(error.path("message").asText().contains("shutting down"), refused.body());
            HttpResponse<String> readiness = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/health/readiness")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(503, readiness.statusCode(), readiness.body());
            assertTrue(JSON.readTree(readiness.body()).path("draining").asBoolean());

            RawHttp.Response completed = inFlight.get();
            assertEquals(200, completed.status(), "the call in flight completed: " + completed.body());
            assertTrue(JSON.readTree(completed.body()).has("result"), completed.body());
            stopped.get();
            assertEquals(0, calls.inFlight());
        } finally {
            services.stop();
        }
    }
}
