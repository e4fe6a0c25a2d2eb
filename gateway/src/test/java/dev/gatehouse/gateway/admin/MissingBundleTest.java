package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A gateway whose bundle is missing stays up, says why on /health, and answers every call as unavailable (HTTP 503
 * with Retry-After), tools/list included: nothing was decided, so nothing is denied and no empty list is shown.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "target/no-such-bundle.tar.gz")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/missing-bundle.jsonl")
class MissingBundleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;

    @Test
    void healthSaysWhyAndEveryCallIsDenied() throws Exception {
        HttpResponse<String> health = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getPort() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(503, health.statusCode());
        JsonNode body = JSON.readTree(health.body());
        assertEquals("DOWN", body.path("status").asText());
        assertEquals("bundle_unavailable", body.path("pdp").path("fault").path("code").asText());
        HttpResponse<String> readiness = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getPort() + "/health/readiness")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(503, readiness.statusCode(), "not ready without a verified bundle");
        assertEquals("bundle_unavailable", JSON.readTree(readiness.body()).path("pdp").path("fault").path("code")
                .asText());

        String token = SessionTokens.mint();
        sessions.put(token, new AgentSession("s-1", "local", "t1", "ps-1", "p-1", "a1", "proj-1", Optional.empty(), "codex"));
        String call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"t3_thread_list\","
                + "\"arguments\":{},\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        RawHttp.Response response = RawHttp.post(server.getPort(), call, "Authorization: Bearer " + token,
                "Mcp-Method: tools/call", "Mcp-Name: t3_thread_list", "MCP-Protocol-Version: 2026-07-28");
        assertEquals(503, response.status(), response.body());
        assertEquals("1", response.headers().get("retry-after"), response.headers().toString());
        String text = response.body();
        JsonNode error = JSON.readTree(text.substring(text.indexOf('{'), text.lastIndexOf('}') + 1)).path("error");
        assertEquals(-32603, error.path("code").asInt(), text);
        assertTrue(error.path("message").asText().contains("nothing was decided"), text);
    }

    @Test
    void toolsListIsUnavailableInBothErasNeverAnEmptyList() throws Exception {
        String token = SessionTokens.mint();
        sessions.put(token, new AgentSession("s-2", "local", "t1", "ps-1", "p-1", "a1", "proj-1", Optional.empty(), "codex"));
        String modern = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":{"
                + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        assertUnavailable(RawHttp.post(server.getPort(), modern, "Authorization: Bearer " + token,
                "Mcp-Method: tools/list", "MCP-Protocol-Version: 2026-07-28"), 8);

        RawHttp.Response initialized = RawHttp.post(server.getPort(), "{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", "Authorization: Bearer " + token);
        assertEquals(200, initialized.status(), initialized.body());
        String session = initialized.headers().get("mcp-session-id");
        assertTrue(session != null && !session.isBlank(), initialized.headers().toString());
        assertUnavailable(RawHttp.post(server.getPort(), "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}",
                "Authorization: Bearer " + token, "Mcp-Session-Id: " + session,
                "MCP-Protocol-Version: 2025-11-25"), 9);
    }

    private static void assertUnavailable(RawHttp.Response response, int id) throws Exception {
        assertEquals(503, response.status(), response.body());
        assertEquals("1", response.headers().get("retry-after"), response.headers().toString());
        String text = response.body();
        JsonNode reply = JSON.readTree(text.substring(text.indexOf('{'), text.lastIndexOf('}') + 1));
        assertEquals(-32603, reply.path("error").path("code").asInt(), text);
        assertEquals(id, reply.path("id").asInt(), text);
        assertTrue(reply.path("result").isMissingNode(), text);
    }
}
