package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code method} transport step: {@code /mcp} serves GET, POST and DELETE only (405 with {@code Allow}), and a
 * POST's body only as {@code application/json} in UTF-8 (415), for every JSON-RPC method in both eras. A new user's
 * trial found a {@code tools/call} sent as {@code text/plain} served (the SDK checked only the methods it answers)
 * and {@code TRACE /mcp} handed to the handshake SDK. Nothing refused here is decided or logged.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = McpMethodTest.LOG)
class McpMethodTest {

    static final String LOG = "target/test-decisions/mcp-method.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{"
            + "\"name\":\"wiki_read\",\"arguments\":{\"path\":\"page.md\"}," + META + "}}";
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\",\"params\":{" + META
            + "}}";
    private static final List<String> MODERN_CALL = List.of("MCP-Protocol-Version: 2026-07-28",
            "Mcp-Method: tools/call", "Mcp-Name: wiki_read");
    private static final List<String> MODERN_LIST = List.of("MCP-Protocol-Version: 2026-07-28",
            "Mcp-Method: tools/list");
    /**
     * Content types that are not JSON in UTF-8 by the one rule ({@code JsonContentType}), and malformed ones; the
     * empty string sends none. A parameter other than the charset was taken (a new user's trial: {@code foo=bar}), and
     * so was the charset's alias {@code utf8}, which the admin API refused.
     */
    private static final List<String> NOT_JSON = List.of("text/plain", "text/json", "application/xml",
            "application/x-www-form-urlencoded", "application/jsonx", "application/json-patch+json",
            "application/*", "*/*", "application/json, text/plain", "application/json; charset=latin1",
            "application/json; charset=utf-16", "application/json; charset=no-such-charset", ";;;===", "json", "",
            "application/json; foo=bar", "application/json; charset=utf-8; foo=bar", "application/json; q=1",
            "application/json; charset=utf8", "application/json; charset=utf-8; charset=utf-8",
            "application/json; charset=\"utf-8", "application/json; charset=utf-8\"", "application/", "/json",
            "application/json; =x", "application/json; charset", "application/json; charset=\"\"");
    /** Spellings of JSON in UTF-8 that pass the step: the admin API's, by the same rule. */
    private static final List<String> JSON_TYPES = List.of("application/json", "Application/JSON",
            "application/json; charset=UTF-8", "application/json;charset=\"utf-8\"", "application/json;",
            "application/json ; charset=utf-8", "application/json\t;charset=utf-8", "application/json;;",
            "application/json; charset=\"utf\\-8\"", "APPLICATION/JSON; CHARSET=\"UTF-8\"; ");

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;

    private String token;

    @BeforeEach
    void attach() {
        token = SessionTokens.mint();
        sessions.put(token, new AgentSession("s-method-" + SessionTokens.newId(), "local", "t1", "ps-1", "p-1", "a1",
                "proj-1", Optional.empty(), "codex"));
    }

    /** What the 415 says, naming both spellings accepted, as the admin API's does (a new user's trial). */
    private static final String NOT_JSON_MESSAGE = "unsupported media type: Content-Type must be application/json, or"
            + " application/json; charset=utf-8";

    @Test
    void aPostThatIsNotJsonIs415ForEveryMethodAndNothingIsLogged() throws IOException {
        long logged = loggedLines();
        List<String> answers = new ArrayList<>();
        for (String type : NOT_JSON) {
            for (List<Object> request : List.of(List.of(CALL, MODERN_CALL), List.of(LIST, MODERN_LIST),
                    List.of(CALL, List.of()), List.of(LIST, List.of()))) {
                @SuppressWarnings("unchecked")
                RawHttp.Response response = post((String) request.get(0), type, (List<String>) request.get(1));
                String what = type + " " + request;
                assertEquals(415, response.status(), what + ": " + response.body());
                assertEquals("close", response.headers().get("connection"), what);
                JsonNode body = JSON.readTree(response.body());
                assertEquals(-32600, body.path("error").path("code").asInt(), what + ": " + response.body());
                assertEquals(NOT_JSON_MESSAGE,
                        body.path("error").path("message").asText(), what);
                answers.add(type);
            }
        }
        assertEquals(NOT_JSON.size() * 4, answers.size());
        for (List<String> lines : List.of(List.of("Content-Type: application/json", "Content-Type: application/json"),
                List.of("Content-Type: application/json", "Content-Type: text/plain"),
                List.of("Content-Type: text/plain", "Content-Type: application/json"))) {
            List<String> headers = new ArrayList<>(MODERN_LIST);
            headers.addAll(lines);
            RawHttp.Response response = post(LIST, "", headers);
            assertEquals(415, response.status(), lines + ": " + response.body());
            assertEquals(NOT_JSON_MESSAGE,
                    JSON.readTree(response.body()).path("error").path("message").asText(), lines.toString());
        }
        assertEquals(logged, loggedLines(), "a refused request is neither decided nor logged");
    }

    @Test
    void jsonInUtf8PassesTheStepHoweverItIsSpelt() throws IOException {
        for (String type : JSON_TYPES) {
            RawHttp.Response call = post(CALL, type, MODERN_CALL);
            RawHttp.Response list = post(LIST, type, MODERN_LIST);
            assertNotEquals(415, call.status(), type + ": " + call.body());
            assertEquals(200, list.status(), type + ": " + list.body());
            assertTrue(JSON.readTree(list.body()).path("result").path("tools").isArray(), type + ": " + list.body());
        }
    }

    @Test
    void methodsTheTransportDoesNotServeAre405WithAllow() throws IOException {
        for (String method : List.of("PUT", "PATCH", "TRACE", "HEAD", "PROPFIND", "FOO")) {
            byte[] body = CALL.getBytes(StandardCharsets.UTF_8);
            RawHttp.Response response = RawHttp.send(server.getPort(), method + " /mcp HTTP/1.1\r\nHost: "
                    + "127.0.0.1:" + server.getPort() + "\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length, body);
            assertEquals(405, response.status(), method + ": " + response.body());
            assertEquals(MethodStep.ALLOW, response.headers().get("allow"), method);
            if (!method.equals("HEAD")) {
                assertEquals(-32600, JSON.readTree(response.body()).path("error").path("code").asInt(),
                        method + ": " + response.body());
            }
        }
    }

    /** An encoded body would be read as if it were not: 415 with Accept-Encoding; identity is no encoding. */
    @Test
    void anEncodedBodyIs415() throws IOException {
        for (String encoding : List.of("gzip", "br", "deflate", "x-unknown", "gzip, identity")) {
            RawHttp.Response response = post(LIST, "application/json", List.of("MCP-Protocol-Version: 2026-07-28",
                    "Mcp-Method: tools/list", "Content-Encoding: " + encoding));
            assertEquals(415, response.status(), encoding + ": " + response.body());
            assertEquals("identity", response.headers().get("accept-encoding"), encoding);
        }
        assertEquals(200, post(LIST, "application/json", List.of("MCP-Protocol-Version: 2026-07-28",
                "Mcp-Method: tools/list", "Content-Encoding: identity")).status());
    }

    /** In the handshake era too, a header that says which session or revision counts is given once (400 otherwise). */
    @Test
    void aSessionOrVersionHeaderGivenTwiceIs400InTheHandshakeEra() throws IOException {
        RawHttp.Response init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
                + "\"version\":\"1\"}}}", "application/json", List.of());
        String session = init.headers().get("mcp-session-id");
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}";
        for (List<String> headers : List.of(
                List.of("Mcp-Session-Id: " + session, "Mcp-Session-Id: " + session, "MCP-Protocol-Version: 2025-11-25"),
                List.of("Mcp-Session-Id: " + session, "Mcp-Session-Id: other", "MCP-Protocol-Version: 2025-11-25"),
                List.of("Mcp-Session-Id: " + session, "MCP-Protocol-Version: 2025-11-25",
                        "MCP-Protocol-Version: 2025-06-18"))) {
            RawHttp.Response response = post(ping, "application/json", headers);
            assertEquals(400, response.status(), headers + ": " + response.body());
            JsonNode body = JSON.readTree(response.body());
            assertEquals(9, body.path("id").asInt(), response.body());
            assertTrue(body.path("error").path("message").asText().contains("more than one value"), response.body());
        }
        assertEquals(200, post(ping, "application/json", List.of("Mcp-Session-Id: " + session,
                "MCP-Protocol-Version: 2025-11-25")).status());
    }

    /** The 2026-07-28 transport is stateless: a GET or DELETE in that era is 405 naming POST alone in Allow. */
    @Test
    void getAndDeleteInThe2026EraAre405WithAllowPost() throws IOException {
        for (String method : List.of("GET", "DELETE")) {
            RawHttp.Response response = RawHttp.send(server.getPort(), method + " /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                    + server.getPort() + "\r\nAuthorization: Bearer " + token + "\r\nAccept: application/json,"
                    + " text/event-stream\r\nMCP-Protocol-Version: 2026-07-28", new byte[0]);
            assertEquals(405, response.status(), method + ": " + response.body());
            assertEquals("POST", response.headers().get("allow"), method);
            assertEquals(-32600, JSON.readTree(response.body()).path("error").path("code").asInt(), response.body());
        }
    }

    private RawHttp.Response post(String json, String contentType, List<String> headers) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort()
                + "\r\nAuthorization: Bearer " + token + "\r\nAccept: application/json, text/event-stream"
                + "\r\nContent-Length: " + body.length);
        if (!contentType.isEmpty()) {
            head.append("\r\nContent-Type: ").append(contentType);
        }
        headers.forEach(header -> head.append("\r\n").append(header));
        return RawHttp.send(server.getPort(), head.toString(), body);
    }

    private static long loggedLines() throws IOException {
        Path log = Path.of(LOG);
        if (!Files.exists(log)) {
            return 0;
        }
        try (var lines = Files.lines(log)) {
            return lines.count();
        }
    }
}
