package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What {@code /mcp} answers to requests its SDK transports refuse, or that never reach them whole (a new user's
 * trial on 2026-12-03 found the handshake SDK's serialised exception, stack trace included, in the body of such
 * answers, and a 500 for a JSON-RPC response or a body shorter than its Content-Length): always a JSON-RPC error
 * with a fixed message and a 4xx status, never a stack trace or a 500.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/sdk-refusal.jsonl")
class SdkRefusalTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}";
    private static final String JSON_TYPE = "Content-Type: application/json";
    private static final String BOTH = "Accept: application/json, text/event-stream";

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;

    private String token;

    @BeforeEach
    void attach() {
        token = SessionTokens.mint();
        sessions.put(token, new AgentSession("s-refusal-" + SessionTokens.newId(), "local", "t1", "ps-1", "p-1", "a1",
                "proj-1", Optional.empty(), "codex"));
    }

    /** Every Content-Type and Accept the handshake SDK refuses, on initialize and inside a session. */
    @Test
    void headersTheSdkRefusesAreStructured4xxErrors() throws IOException {
        String session = handshakeSession();
        List<String> contentTypes = List.of("Content-Type: text/plain", "Content-Type: application/xml",
                "Content-Type: application/x-www-form-urlencoded", "Content-Type: ;;;===", "",
                "Content-Type: application/json; charset=utf-16");
        List<String> accepts = List.of("Accept: application/xml", "Accept: text/html", "");
        List<String> refused = new ArrayList<>();
        for (String body : List.of(INITIALIZE, LIST)) {
            String sessionHeader = body.equals(LIST) ? "Mcp-Session-Id: " + session : "";
            for (String type : contentTypes) {
                refused.add(assertStructured4xx(post(body, type, BOTH, sessionHeader), body + " " + type));
            }
            for (String accept : accepts) {
                refused.add(assertStructured4xx(post(body, JSON_TYPE, accept, sessionHeader), body + " " + accept));
            }
        }
        assertTrue(refused.contains("415"), "a wrong Content-Type keeps the SDK's status: " + refused);
    }

    /** A GET that does not accept an event stream, and methods the transport has no use for. */
    @Test
    void requestsWithoutABodyTheSdkRefusesAreStructured4xxErrors() throws IOException {
        String session = handshakeSession();
        for (String head : List.of("GET /mcp HTTP/1.1\r\nAccept: application/json",
                "GET /mcp HTTP/1.1\r\nAccept: application/xml", "PUT /mcp HTTP/1.1\r\n" + BOTH)) {
            RawHttp.Response response = RawHttp.send(server.getPort(), head + "\r\nHost: 127.0.0.1:" + server.getPort()
                    + "\r\nAuthorization: Bearer " + token + "\r\nMcp-Session-Id: " + session
                    + "\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: 0", new byte[0]);
            assertStructured4xx(response, head);
        }
    }

    /** The gateway sends clients no requests, so a response answers nothing: 400 -32600 in both eras. */
    @Test
    void aResponseFromTheClientIs400InBothEras() throws IOException {
        String session = handshakeSession();
        String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}";
        for (String message : List.of("{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":99,\"error\":{\"code\":1,\"message\":\"x\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{" + meta + "}}")) {
            for (List<String> era : List.of(List.of("Mcp-Session-Id: " + session, "MCP-Protocol-Version: 2025-11-25"),
                    List.of("MCP-Protocol-Version: 2026-07-28", ""))) {
                RawHttp.Response response = post(message, JSON_TYPE, BOTH, era.get(0), era.get(1));
                assertEquals("400", assertStructured4xx(response, message), response.body());
                JsonNode body = JSON.readTree(response.body());
                assertEquals(-32600, body.path("error").path("code").asInt(), response.body());
                assertEquals(99, body.path("id").asInt(), response.body());
            }
        }
    }

    /** A body that ends before its Content-Length: the client's error (400 -32600), answered at once. */
    @Test
    void aBodyShorterThanItsContentLengthIs400() throws IOException {
        for (int sent : new int[] {0, 1, 10, 99}) {
            try (Socket socket = new Socket("127.0.0.1", server.getPort())) {
                socket.setSoTimeout(20_000);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort() + "\r\n" + JSON_TYPE
                        + "\r\n" + BOTH + "\r\nAuthorization: Bearer " + token + "\r\nContent-Length: 100\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.write("{".repeat(sent).getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                socket.shutdownOutput();
                ByteArrayOutputStream answer = new ByteArrayOutputStream();
                socket.getInputStream().transferTo(answer);
                String text = answer.toString(StandardCharsets.UTF_8);
                assertTrue(text.startsWith("HTTP/1.1 400"), sent + " bytes of 100: " + text);
                JsonNode body = JSON.readTree(text.substring(text.indexOf("\r\n\r\n") + 4));
                assertEquals(-32600, body.path("error").path("code").asInt(), text);
            }
        }
    }

    /**
     * A chunked body cut short or framed wrongly is 400 -32600 saying so (a new user's trial: it was said to have
     * "ended before its Content-Length", which it never had); a declared length's message stays that one.
     */
    @Test
    void aChunkedBodyEndedEarlyOrMalformedIs400WithoutClaimingAContentLength() throws IOException {
        for (String chunks : List.of("", "5\r\n", "10\r\n{\"json", "2\r\n{}\r\n", "2\r\n{}",
                "zz\r\n{}\r\n0\r\n\r\n", "2\r\n{}XX0\r\n\r\n", "-2\r\n{}\r\n0\r\n\r\n",
                Integer.toHexString(LIST.length()) + "\r\n" + LIST)) {
            RawHttp.Response response = RawHttp.sendAndEnd(server.getPort(), "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                    + server.getPort() + "\r\n" + JSON_TYPE + "\r\n" + BOTH + "\r\nAuthorization: Bearer " + token
                    + "\r\nTransfer-Encoding: chunked", chunks.getBytes(StandardCharsets.ISO_8859_1));
            String label = chunks.replace("\r\n", "\\r\\n");
            assertEquals(400, response.status(), label + ": " + response.body());
            assertEquals("close", response.headers().get("connection"), label);
            JsonNode body = JSON.readTree(response.body());
            assertEquals(-32600, body.path("error").path("code").asInt(), label + ": " + response.body());
            assertEquals("the request body's chunked encoding was malformed or ended before its last chunk, or the"
                    + " body stalled", body.path("error").path("message").asText(), label);
        }
        RawHttp.Response declared = RawHttp.sendAndEnd(server.getPort(), "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.getPort() + "\r\n" + JSON_TYPE + "\r\n" + BOTH + "\r\nAuthorization: Bearer " + token
                + "\r\nContent-Length: 100", "{}".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals("the request body ended before its Content-Length, or stalled",
                JSON.readTree(declared.body()).path("error").path("message").asText(), declared.body());
        String modern = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        RawHttp.Response whole = RawHttp.sendAndEnd(server.getPort(), "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.getPort() + "\r\n" + JSON_TYPE + "\r\n" + BOTH + "\r\nAuthorization: Bearer " + token
                + "\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nTransfer-Encoding: chunked",
                ("5\r\n" + modern.substring(0, 5) + "\r\n" + Integer.toHexString(modern.length() - 5) + "\r\n"
                        + modern.substring(5) + "\r\n0\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(200, whole.status(), "a whole chunked body is read: " + whole.body());
    }

    private String handshakeSession() throws IOException {
        RawHttp.Response init = post(INITIALIZE, JSON_TYPE, BOTH);
        assertEquals(200, init.status(), init.body());
        return init.headers().get("mcp-session-id");
    }

    private RawHttp.Response post(String body, String... headers) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort()
                + "\r\nAuthorization: Bearer " + token + "\r\nContent-Length: " + bytes.length);
        for (String header : headers) {
            if (!header.isEmpty()) {
                head.append("\r\n").append(header);
            }
        }
        return RawHttp.send(server.getPort(), head.toString(), bytes);
    }

    /** Asserts a 4xx JSON-RPC error with a message and nothing of an exception; returns its status. */
    private static String assertStructured4xx(RawHttp.Response response, String what) throws IOException {
        assertTrue(response.status() >= 400 && response.status() < 500, what + ": " + response.status() + " "
                + response.body());
        for (String leak : List.of("stackTrace", "Exception", "modelcontextprotocol", "\tat ", "cause")) {
            assertFalse(response.body().contains(leak), what + " leaks '" + leak + "': " + response.body());
        }
        JsonNode body = JSON.readTree(response.body());
        assertEquals("2.0", body.path("jsonrpc").asText(), what + ": " + response.body());
        assertEquals(-32600, body.path("error").path("code").asInt(), what + ": " + response.body());
        assertFalse(body.path("error").path("message").asText().isEmpty(), what + ": " + response.body());
        return Integer.toString(response.status());
    }
}
