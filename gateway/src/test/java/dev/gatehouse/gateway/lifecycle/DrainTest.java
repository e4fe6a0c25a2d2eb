package dev.gatehouse.gateway.lifecycle;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.sun.net.httpserver.HttpServer;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown through the real server stop: a call in flight (its wiki read is held until the test has seen
 * the drain) completes with its result; while it drains, readiness is 503 and a new {@code /mcp} request gets 503
 * with {@code Retry-After} and a retryable JSON-RPC error; then the server stops. Each step waits for the effect it
 * needs, never for time.
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
        CountDownLatch answerTheRead = new CountDownLatch(1);
        HttpServer wiki = heldWiki(answerTheRead);
        try {
            services.stubFor(WireMock.get(urlPathEqualTo("/host/v1/threads/t1")).willReturn(aResponse()
                    .withStatus(200).withHeader("Content-Type", "application/json").withHeader("Api-Version", "1")
                    .withBody("{\"threadId\":\"t1\",\"title\":\"t\",\"archived\":false,\"runtimeMode\":"
                            + "\"full-access\",\"interactionMode\":\"default\",\"activeRunId\":\"run-1\","
                            + "\"providerInstanceId\":\"p-1\",\"projectId\":\"demo\",\"messages\":[]}")));
            Map<String, Object> properties = new HashMap<>();
            properties.put("micronaut.server.port", "-1");
            properties.put("gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir",
                    "../target/bundle") + "/bundle.tar.gz");
            properties.put("gatehouse.audit.path", "target/test-decisions/drain.jsonl");
            properties.put("gatehouse.services.host.url", services.baseUrl());
            properties.put("gatehouse.services.host.credential", "service-credential");
            properties.put("gatehouse.services.wiki.url", "http://127.0.0.1:" + wiki.getAddress().getPort());
            properties.put("gatehouse.services.wiki.credential", "service-credential");
            properties.put("gatehouse.services.wiki.deadline", "60s"); // the read is held, not late
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
            await("the call in flight").until(() -> calls.inFlight() > 0);
            CompletableFuture<Void> stopped = CompletableFuture.runAsync(server::stop);
            await("the drain begun").until(calls::draining);

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

            answerTheRead.countDown();
            RawHttp.Response completed = inFlight.get();
            assertEquals(200, completed.status(), "the call in flight completed: " + completed.body());
            assertTrue(JSON.readTree(completed.body()).has("result"), completed.body());
            stopped.get();
            assertEquals(0, calls.inFlight());
        } finally {
            answerTheRead.countDown();
            wiki.stop(0);
            services.stop();
        }
    }

    /** A wiki service whose page reads are answered (404, no such page) only once {@code answer} opens. */
    private static HttpServer heldWiki(CountDownLatch answer) throws IOException {
        HttpServer wiki = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        wiki.createContext("/wiki/v1/pages", exchange -> {
            try {
                answer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = "{\"error\":{\"code\":\"not_found\",\"message\":\"no such page\"}}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.getResponseHeaders().add("Api-Version", "1");
            exchange.sendResponseHeaders(404, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        wiki.start();
        return wiki;
    }
}
