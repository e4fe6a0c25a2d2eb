package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.context.annotation.Property;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transport guard of {@code /mcp} over real HTTP, in front of
 * authentication, the gate and both SDKs.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.mcp.max-request-bytes", value = "65536")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/transport-guard.jsonl")
class McpTransportGuardTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A 2026-07-28 request (there is no ping in that revision): server/discover. */
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\","
            + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

    private static final String META = ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;
    @Inject
    dev.gatehouse.gateway.audit.DecisionLog decisions;

    private String token;

    @BeforeEach
    void attach() {
        token = dev.gatehouse.gateway.auth.SessionTokens.mint();
        sessions.put(token, new AgentSession("s-guard-" + dev.gatehouse.gateway.auth.SessionTokens.newId(), "local", "t1", "ps-1", "p-1", "a1", "proj-1",
                Optional.empty(), "codex"));
    }

    private long records() throws IOException {
        java.nio.file.Path file = decisions.file();
        return java.nio.file.Files.exists(file) ? java.nio.file.Files.readAllLines(file).size() : 0;
    }

    /** Decision-log records of one MCP method. */
    private long records(String method) throws IOException {
        java.nio.file.Path file = decisions.file();
        if (!java.nio.file.Files.exists(file)) {
            return 0;
        }
        long count = 0;
        for (String line : java.nio.file.Files.readAllLines(file)) {
            if (JSON.readTree(line).path("method").asText().equals(method)) {
                count++;
            }
        }
        return count;
    }

    private String bearer() {
        return "Authorization: Bearer " + token;
    }

    private RawHttp.Response modernPing(String... extra) throws IOException {
        String[] headers = new String[extra.length + 3];
        headers[0] = bearer();
        headers[1] = "Mcp-Method: server/discover";
        headers[2] = "MCP-Protocol-Version: 2026-07-28";
        System.arraycopy(extra, 0, headers, 3, extra.length);
        return RawHttp.post(server.getPort(), PING, headers);
    }

    private static JsonNode json(RawHttp.Response response) throws IOException {
        return JSON.readTree(response.body());
    }

    /** Two credentials in one request: neither wins, whatever their order; one alone still works. */
    @Test
    void twoAuthorizationHeadersAreRefused() throws IOException {
        assertEquals(200, modernPing().status());
        for (String other : List.of("Authorization: Bearer " + token, "Authorization: Bearer someone-else",
                "authorization: Bearer " + token)) {
            RawHttp.Response response = modernPing(other);
            assertEquals(400, response.status(), other);
            assertEquals(-32600, json(response).path("error").path("code").asInt());
        }
    }

    /**
     * An initialize the SDK cannot read, or whose protocolVersion is longer than a revision could be, is the caller's
     * error (400 -32602), never a 500 with a stack trace.
     */
    @Test
    void anUnreadableInitializeIsInvalidParams() throws IOException {
        for (String params : new String[] {"", ",\"params\":{}", ",\"params\":{\"protocolVersion\":20251125}",
                ",\"params\":{\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}",
                ",\"params\":{\"protocolVersion\":\"" + "9".repeat(65) + "\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"}) {
            RawHttp.Response response = RawHttp.post(server.getPort(),
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\"" + params + "}", bearer());
            assertEquals(400, response.status(), params + ": " + response.body());
            JsonNode body = json(response);
            assertEquals(-32602, body.path("error").path("code").asInt(), params);
            assertEquals(3, body.path("id").asInt(), params);
            assertTrue(!response.body().contains("Exception") && !response.body().contains("at io."), response.body());
        }
        RawHttp.Response valid = RawHttp.post(server.getPort(), "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":"
                + "\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", bearer());
        assertEquals(200, valid.status(), valid.body());
        // As long as a revision may be, but not one served: answered with the revision the server speaks.
        RawHttp.Response unknown = RawHttp.post(server.getPort(), "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":"
                + "\"initialize\",\"params\":{\"protocolVersion\":\"" + "9".repeat(64) + "\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", bearer());
        assertEquals(200, unknown.status(), unknown.body());
        assertEquals("2025-11-25", json(unknown).at("/result/protocolVersion").asText(), unknown.body());
    }

    @Test
    void batchesAreRefusedBeforeTheGate() throws IOException {
        long before = records();
        RawHttp.Response response = RawHttp.post(server.getPort(), "[{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_write\",\"arguments\":{\"path\":\"page.md\","
                + "\"content\":\"x\"}}}]", bearer());
        assertEquals(400, response.status());
        JsonNode body = json(response);
        assertEquals(-32600, body.path("error").path("code").asInt());
        assertTrue(body.get("id").isNull());
        assertEquals(before, records());
    }

    @Test
    void invalidIdsAreRefused() throws IOException {
        for (String id : new String[] {"null", "1.5", "true", "{}", "[1]"}) {
            RawHttp.Response response = RawHttp.post(server.getPort(), "{\"jsonrpc\":\"2.0\",\"id\":" + id
                    + ",\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_write\",\"arguments\":{}}}", bearer());
            assertEquals(400, response.status(), id);
            assertEquals(-32600, json(response).path("error").path("code").asInt(), id);
        }
    }

    @Test
    void foreignOriginsAndHostsAreForbiddenEvenWithAValidToken() throws IOException {
        int port = server.getPort();
        assertEquals(403, RawHttp.post(port, PING, bearer(), "Origin: http://attacker.example").status());
        assertEquals(403, RawHttp.post(port, PING, bearer(), "Origin: null").status());
        byte[] ping = PING.getBytes(StandardCharsets.UTF_8);
        RawHttp.Response foreignHost = RawHttp.send(port, "POST /mcp HTTP/1.1\r\nHost: attacker.example:" + port
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + "Content-Length: " + ping.length + "\r\n" + bearer(), ping);
        assertEquals(403, foreignHost.status());
        RawHttp.Response control = modernPing();
        assertEquals(200, control.status(), control.body());
    }

    @Test
    void oversizedBodiesAre413BeforeAuthenticationAlsoWhenChunked() throws IOException {
        int port = server.getPort();
        byte[] big = new byte[1024 * 1024];
        java.util.Arrays.fill(big, (byte) ' ');
        StringBuilder chunked = new StringBuilder();
        RawHttp.Response noToken = RawHttp.send(port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked",
                chunk(big, chunked));
        assertEquals(413, noToken.status());
        RawHttp.Response lying = RawHttp.send(port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n" + bearer(), big);
        assertEquals(413, lying.status());
    }

    private static byte[] chunk(byte[] body, StringBuilder unused) {
        String head = Integer.toHexString(body.length) + "\r\n";
        byte[] out = new byte[head.length() + body.length + 7];
        System.arraycopy(head.getBytes(StandardCharsets.ISO_8859_1), 0, out, 0, head.length());
        System.arraycopy(body, 0, out, head.length(), body.length);
        System.arraycopy("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0, out, head.length() + body.length,
                7);
        return out;
    }

    @Test
    void unauthenticatedRequestsGet401WithResourceMetadata() throws IOException {
        RawHttp.Response response = RawHttp.post(server.getPort(), PING);
        assertEquals(401, response.status());
        assertTrue(response.headers().get("www-authenticate").startsWith("Bearer resource_metadata=\""),
                response.headers().toString());
        assertEquals(401, RawHttp.post(server.getPort(), PING, "Authorization: Bearer admin-test-credential")
                .status());
    }

    @Test
    void aMalformedModeLimitIs400() throws IOException {
        RawHttp.Response response = RawHttp.post(server.getPort(), PING, bearer(), "T3-Mode-Limit: everything");
        assertEquals(400, response.status());
        assertEquals("invalid_mode_limit", json(response).path("error").path("message").asText());
    }

    @Test
    void modernHeadersThatDisagreeWithTheBodyAre400() throws IOException {
        RawHttp.Response method = RawHttp.post(server.getPort(), PING, bearer(), "Mcp-Method: tools/call",
                "MCP-Protocol-Version: 2026-07-28");
        assertEquals(400, method.status());
        assertEquals(-32020, json(method).path("error").path("code").asInt());
        assertEquals(1, json(method).path("id").asInt());
        RawHttp.Response version = RawHttp.post(server.getPort(), PING, bearer(), "Mcp-Method: server/discover",
                "MCP-Protocol-Version: 2025-11-25");
        assertEquals(400, version.status());
        assertEquals(-32020, json(version).path("error").path("code").asInt());
        RawHttp.Response missing = RawHttp.post(server.getPort(), PING, bearer(), "MCP-Protocol-Version: 2026-07-28");
        assertEquals(400, missing.status());
        assertEquals(-32020, json(missing).path("error").path("code").asInt());
        RawHttp.Response upper = RawHttp.post(server.getPort(), PING, bearer(), "Mcp-Method: SERVER/DISCOVER",
                "MCP-Protocol-Version: 2026-07-28");
        assertEquals(-32020, json(upper).path("error").path("code").asInt());
        RawHttp.Response spaced = RawHttp.post(server.getPort(), PING, bearer(), "mcp-method:   server/discover  ",
                "MCP-Protocol-Version: 2026-07-28");
        assertEquals(200, spaced.status(), spaced.body());
    }

    @Test
    void aToolCallWhoseMcpNameDisagreesIs400BeforeTheGate() throws IOException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{"
                + "\"name\":\"wiki_read\",\"arguments\":{\"path\":\"page.md\"}," + META.substring(1) + "}}";
        long before = records();
        for (String[] headers : new String[][] {{"Mcp-Name: wiki_write"}, {}}) {
            String[] all = new String[headers.length + 3];
            all[0] = bearer();
            all[1] = "Mcp-Method: tools/call";
            all[2] = "MCP-Protocol-Version: 2026-07-28";
            System.arraycopy(headers, 0, all, 3, headers.length);
            RawHttp.Response response = RawHttp.post(server.getPort(), body, all);
            assertEquals(400, response.status(), response.body());
            assertEquals(-32020, json(response).path("error").path("code").asInt());
            assertEquals(7, json(response).path("id").asInt());
        }
        assertEquals(before, records(), "a refused header never reaches the gate");
    }

    @Test
    void discoverAndUnsupportedVersionsNameEveryServedRevision() throws IOException {
        RawHttp.Response discover = modernPing();
        assertEquals(200, discover.status(), discover.body());
        assertEquals("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\"]",
                firstJson(discover.body()).path("result").path("supportedVersions").toString());
        for (String requested : new String[] {"2025-11-25", "2025-03-26", "v999"}) {
            RawHttp.Response refused = RawHttp.post(server.getPort(), PING.replace("\"2026-07-28\"",
                    "\"" + requested + "\""), bearer(), "Mcp-Method: server/discover",
                    "MCP-Protocol-Version: " + requested);
            assertEquals(400, refused.status(), refused.body());
            JsonNode error = json(refused).path("error");
            assertEquals(-32022, error.path("code").asInt(), refused.body());
            assertEquals("[\"2026-07-28\",\"2025-11-25\",\"2025-06-18\"]", error.path("data").path("supported").toString());
            assertEquals(requested, error.path("data").path("requested").asText());
        }
    }

    @Test
    void initializeIsTheHandshakeWhateverHeadersComeWithItAnd20250326IsNotServed() throws IOException {
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"%s\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        RawHttp.Response withHeaders = RawHttp.post(server.getPort(), initialize.formatted("2025-11-25"), bearer(),
                "Mcp-Method: initialize", "MCP-Protocol-Version: 2025-11-25");
        assertEquals(200, withHeaders.status(), withHeaders.body());
        assertEquals("2025-11-25", firstJson(withHeaders.body()).path("result").path("protocolVersion").asText());
        RawHttp.Response old = RawHttp.post(server.getPort(), initialize.formatted("2025-03-26"), bearer());
        assertEquals(200, old.status(), old.body());
        assertEquals("2025-11-25", firstJson(old.body()).path("result").path("protocolVersion").asText(),
                "2025-03-26 is answered with the newest handshake revision, which the client may decline");
        String sessionId = old.headers().get("mcp-session-id");
        RawHttp.Response oldHeader = RawHttp.post(server.getPort(), "{\"jsonrpc\":\"2.0\",\"id\":2,"
                + "\"method\":\"tools/list\"}", bearer(), "Mcp-Session-Id: " + sessionId,
                "MCP-Protocol-Version: 2025-03-26");
        assertEquals(400, oldHeader.status(), oldHeader.body());
        assertEquals(-32022, json(oldHeader).path("error").path("code").asInt());
        RawHttp.Response removed = RawHttp.post(server.getPort(), "{\"jsonrpc\":\"2.0\",\"id\":3,"
                + "\"method\":\"initialize\",\"params\":{" + META.substring(1) + "}}", bearer(),
                "Mcp-Method: initialize", "MCP-Protocol-Version: 2026-07-28");
        assertEquals(404, removed.status(), "a 2026-07-28 initialize is a removed method: " + removed.body());
        assertEquals(-32601, json(removed).path("error").path("code").asInt());
    }

    @Test
    void handshakeSessionsAreServerIssuedAndBoundToTheirCaller() throws IOException {
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        RawHttp.Response init = RawHttp.post(server.getPort(), initialize, bearer(), "Mcp-Session-Id: chosen-by-client");
        assertEquals(200, init.status(), init.body());
        String sessionId = init.headers().get("mcp-session-id");
        assertTrue(sessionId != null && !sessionId.equals("chosen-by-client"), init.headers().toString());

        String listTools = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
        assertEquals(404, RawHttp.post(server.getPort(), listTools, bearer(), "Mcp-Session-Id: chosen-by-client")
                .status());
        String other = dev.gatehouse.gateway.auth.SessionTokens.mint();
        sessions.put(other, new AgentSession("s-other", "local", "t2", "ps-2", "p-2", "a2", "proj-1",
                Optional.empty(), "codex"));
        assertEquals(404, RawHttp.post(server.getPort(), listTools, "Authorization: Bearer " + other,
                "Mcp-Session-Id: " + sessionId).status());
        assertEquals(400, RawHttp.post(server.getPort(), listTools, bearer()).status());
        long listingsBefore = records("tools/list");
        RawHttp.Response owner = RawHttp.post(server.getPort(), listTools, bearer(), "Mcp-Session-Id: " + sessionId);
        assertEquals(200, owner.status(), owner.body());
        assertEquals(listingsBefore + 1, records("tools/list"), "one visible_tools evaluation per tools/list");
        java.util.List<String> lines = java.nio.file.Files.readAllLines(decisions.file());
        assertEquals("codex", JSON.readTree(lines.get(lines.size() - 1)).path("caller").path("provider").asText(),
                "the decision log names the session's provider kind");
    }

    /** Public-failures row 15: arguments that are not an object, or missing, still reach the policy as facts. */
    @Test
    void nonObjectOrMissingArgumentsAreSchemaDenialsInBothEras() throws IOException {
        String meta = ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
        for (String arguments : new String[] {",\"arguments\":\"page.md\"", ",\"arguments\":[\"page.md\"]",
            ",\"arguments\":null", ""}) {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":\"c1\",\"method\":\"tools/call\",\"params\":{"
                    + "\"name\":\"wiki_read\"" + arguments + meta + "}}";
            RawHttp.Response response = RawHttp.post(server.getPort(), body, bearer(), "Mcp-Method: tools/call",
                    "Mcp-Name: wiki_read", "MCP-Protocol-Version: 2026-07-28");
            assertEquals(200, response.status(), response.body());
            JsonNode result = firstJson(response.body()).path("result");
            assertEquals("c1", firstJson(response.body()).path("id").asText());
            assertTrue(result.path("isError").asBoolean(), response.body());
            assertEquals("denied", result.path("structuredContent").path("kind").asText(), response.body());
            assertEquals("schema", result.path("structuredContent").path("reasons").get(0).path("code").asText(),
                    response.body());
        }
    }

    /** The first JSON object in a body that may be plain JSON or one SSE event. */
    private static JsonNode firstJson(String body) throws IOException {
        int start = body.indexOf('{');
        return JSON.readTree(body.substring(start, body.lastIndexOf('}') + 1));
    }
}
