package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/** Writes the answers the front servlet gives itself: guard rejections and gate results for direct calls. */
final class JsonRpcReplies {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonRpcReplies() {
    }

    /** A rejection: its status and headers, and a JSON-RPC error body when it has a code. */
    static void reject(HttpServletResponse response, Rejection rejection) throws IOException {
        rejection.headers().forEach(response::setHeader);
        ObjectNode body = JSON.createObjectNode();
        body.put("jsonrpc", "2.0");
        putId(body, rejection.id());
        ObjectNode error = body.putObject("error");
        error.put("code", rejection.jsonRpcCode().orElse(Rejection.INVALID_REQUEST));
        error.put("message", rejection.message());
        rejection.data().ifPresent(data -> error.set("data", JSON.valueToTree(data)));
        write(response, rejection.status(), JSON.writeValueAsBytes(body));
    }

    /** A JSON-RPC result whose {@code result} member is {@code resultJson}: UTF-8 JSON the SDK mapper wrote. */
    static void result(HttpServletResponse response, Optional<Object> id, byte[] resultJson) throws IOException {
        // The result is JSON already: framed as it is, not parsed and written a second time (a wiki page can be
        // large, and every tools/call reply passes here), and copied once, into the body.
        ObjectNode head = JSON.createObjectNode();
        putId(head, id);
        byte[] start = ("{\"jsonrpc\":\"2.0\",\"id\":" + JSON.writeValueAsString(head.get("id")) + ",\"result\":")
                .getBytes(StandardCharsets.UTF_8);
        byte[] body = Arrays.copyOf(start, start.length + resultJson.length + 1);
        System.arraycopy(resultJson, 0, body, start.length, resultJson.length);
        body[body.length - 1] = '}';
        write(response, HttpServletResponse.SC_OK, body);
    }

    private static void putId(ObjectNode body, Optional<Object> id) {
        if (id.isEmpty()) {
            body.putNull("id");
        } else if (id.get() instanceof Long number) {
            body.put("id", number);
        } else {
            body.put("id", id.get().toString());
        }
    }

    private static void write(HttpServletResponse response, int status, byte[] bytes) throws IOException {
        response.setStatus(status);
        // One call with the charset: Jetty knows this type, where setCharacterEncoding looks the charset up per reply.
        response.setContentType("application/json;charset=utf-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
        response.flushBuffer();
    }
}
