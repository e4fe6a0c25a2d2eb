package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A caller cannot make the handshake SDK keep unbounded memory (a new user's trial grew the heap by 300 MB with 300
 * initialize requests of 900 KB capabilities each): an initialize over 64 KiB is 413, and one more session than
 * {@code max-sessions-per-caller} is 429 until the caller ends one; other callers are not affected.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/session-limits.jsonl")
@Property(name = "gatehouse.mcp.max-sessions-per-caller", value = "3")
class SessionLimitsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;

    @Test
    void aCallerHoldsAtMostItsSessionsUntilItEndsOne() throws IOException {
        String token = caller("a1");
        List<String> opened = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RawHttp.Response init = initialize(token, "");
            assertEquals(200, init.status(), init.body());
            opened.add(assertNotNullSession(init));
        }
        RawHttp.Response refused = initialize(token, "");
        assertEquals(429, refused.status(), refused.body());
        assertEquals("3600", refused.headers().get("retry-after"));
        JsonNode error = JSON.readTree(refused.body());
        assertEquals(7, error.path("id").asInt(), refused.body());
        assertTrue(error.path("error").path("message").asText().startsWith("too many open sessions"), refused.body());
        assertEquals(null, refused.headers().get("mcp-session-id"), "no session was opened");

        assertEquals(200, initialize(caller("a2"), "").status(), "another caller is not affected");
        for (String session : opened) { // the sessions held still work
            assertEquals(200, ping(token, session).status(), session);
        }

        RawHttp.Response ended = RawHttp.send(server.getPort(), "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.getPort() + "\r\nAuthorization: Bearer " + token + "\r\nMcp-Session-Id: " + opened.get(0)
                + "\r\nMCP-Protocol-Version: 2025-11-25", new byte[0]);
        assertTrue(ended.status() < 300, ended.status() + " " + ended.body());
        assertEquals(200, initialize(token, "").status(), "a place is free again once a session ended");
        assertEquals(429, initialize(token, "").status());
    }

    @Test
    void anInitializeOver64KiBIs413AndOpensNothing() throws IOException {
        String token = caller("a3");
        String padding = "x".repeat(SessionLimits.MAX_INITIALIZE_BYTES);
        RawHttp.Response refused = initialize(token, ",\"experimental\":{\"blob\":\"" + padding + "\"}");
        assertEquals(413, refused.status(), refused.body());
        assertEquals(-32600, JSON.readTree(refused.body()).path("error").path("code").asInt(), refused.body());
        assertEquals(null, refused.headers().get("mcp-session-id"));
        String fits = "x".repeat(SessionLimits.MAX_INITIALIZE_BYTES - 1024);
        assertEquals(200, initialize(token, ",\"experimental\":{\"blob\":\"" + fits + "\"}").status());
    }

    private String caller(String agent) {
        String token = SessionTokens.mint();
        sessions.put(token, new AgentSession("s-limits-" + SessionTokens.newId(), "local", "t-" + agent, "ps-1", "p-1",
                agent, "proj-1", Optional.empty(), "codex"));
        return token;
    }

    private RawHttp.Response initialize(String token, String capabilities) throws IOException {
        return post(token, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-11-25\",\"capabilities\":{\"roots\":{}" + capabilities + "},\"clientInfo\":{\"name\":\"t\","
                + "\"version\":\"1\"}}}", "");
    }

    private RawHttp.Response ping(String token, String session) throws IOException {
        return post(token, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}", "\r\nMcp-Session-Id: " + session
                + "\r\nMCP-Protocol-Version: 2025-11-25");
    }

    private RawHttp.Response post(String token, String json, String headers) throws IOException {
        byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return RawHttp.send(server.getPort(), "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort()
                + "\r\nAuthorization: Bearer " + token + "\r\nContent-Type: application/json\r\nAccept: application/json,"
                + " text/event-stream\r\nContent-Length: " + body.length + headers, body);
    }

    private static String assertNotNullSession(RawHttp.Response init) {
        String session = init.headers().get("mcp-session-id");
        assertNotNull(session, init.headers().toString());
        return session;
    }
}
