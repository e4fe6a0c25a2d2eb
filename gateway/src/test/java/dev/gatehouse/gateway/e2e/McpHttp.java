package dev.gatehouse.gateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * MCP requests of both eras as a plain HTTP client sends them, for the tests that judge status codes and headers one
 * request at a time under faults (a real MCP client retries and hides them): a 2026-07-28 {@code tools/call} of
 * {@code wiki_read} on the caller's seeded page and {@code tools/list}, and the handshake era's {@code initialize}
 * and the same two methods in a session.
 */
final class McpHttp {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"stall\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    private static final String READ = "\"name\":\"wiki_read\",\"arguments\":{\"path\":\"page.md\"}";

    private final HttpClient http;
    private final String mcpUrl;
    private final Duration timeout;

    McpHttp(HttpClient http, String mcpUrl, Duration timeout) {
        this.http = http;
        this.mcpUrl = mcpUrl;
        this.timeout = timeout;
    }

    HttpResponse<String> modernCall(String token, long id) throws IOException, InterruptedException {
        return send(token, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{" + READ + ","
                + META + "}}", Optional.empty(), "tools/call", Optional.of("wiki_read"));
    }

    /** A 2026-07-28 {@code tools/call} of {@code tool} with {@code arguments} (a JSON object). */
    HttpResponse<String> modernCall(String token, long id, String tool, String arguments) throws IOException,
            InterruptedException {
        return send(token, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                + tool + "\",\"arguments\":" + arguments + "," + META + "}}", Optional.empty(), "tools/call",
                Optional.of(tool));
    }

    HttpResponse<String> modernList(String token, long id) throws IOException, InterruptedException {
        return send(token, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\",\"params\":{" + META
                + "}}", Optional.empty(), "tools/list", Optional.empty());
    }

    HttpResponse<String> initialize(String token) throws IOException, InterruptedException {
        return send(token, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"stall\",\"version\":\"1\"}}}", Optional.empty(), null, Optional.empty());
    }

    HttpResponse<String> handshakeCall(String token, String session, long id) throws IOException,
            InterruptedException {
        return send(token, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{" + READ
                + "}}", Optional.of(session), null, Optional.empty());
    }

    HttpResponse<String> handshakeList(String token, String session, long id) throws IOException,
            InterruptedException {
        return send(token, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}", Optional.of(session),
                null, Optional.empty());
    }

    /** The handshake session id {@code initialize} answered with; fails when there is none. */
    String session(String token) throws IOException, InterruptedException {
        HttpResponse<String> initialized = initialize(token);
        return initialized.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new AssertionError(
                "initialize gave no session: " + initialized.statusCode() + " " + initialized.body()));
    }

    /** A tool result that is not an error, or a tool list. */
    static boolean served(HttpResponse<String> response) throws IOException {
        if (response.statusCode() != 200) {
            return false;
        }
        JsonNode result = firstJson(response.body()).path("result");
        return result.has("tools") || (result.has("content") && !result.path("isError").asBoolean(true));
    }

    /**
     * Over the agent's quota or its share of the gateway (docs/domain.md §10): the tool error {@code rate_limited}
     * with {@code retryAfterMs}, or for tools/list HTTP 429 with {@code Retry-After}. Retryable; nothing was called.
     */
    static boolean rateLimited(HttpResponse<String> response) throws IOException {
        if (response.statusCode() == 429) {
            return response.headers().firstValue("Retry-After").isPresent();
        }
        JsonNode content = firstJson(response.body()).path("result").path("structuredContent");
        return response.statusCode() == 200 && content.path("kind").asText().equals("rate_limited")
                && content.path("retryable").asBoolean(false) && content.path("retryAfterMs").asLong() >= 1;
    }

    /** HTTP 503 with {@code Retry-After}: nothing was decided, retry. */
    static boolean unavailable(HttpResponse<String> response) {
        return response.statusCode() == 503 && response.headers().firstValue("Retry-After").isPresent();
    }

    /** The first JSON object in a body that may be plain JSON or one SSE event. */
    static JsonNode firstJson(String body) throws IOException {
        int start = body.indexOf('{');
        return start < 0 ? JSON.nullNode() : JSON.readTree(body.substring(start, body.lastIndexOf('}') + 1));
    }

    private HttpResponse<String> send(String token, String body, Optional<String> session, String modernMethod,
            Optional<String> name) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(mcpUrl)).timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (modernMethod != null) {
            request.header("Mcp-Method", modernMethod).header("MCP-Protocol-Version", "2026-07-28");
            name.ifPresent(n -> request.header("Mcp-Name", n));
        }
        session.ifPresent(id -> request.header("Mcp-Session-Id", id).header("MCP-Protocol-Version", "2025-11-25"));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
