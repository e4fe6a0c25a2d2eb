package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The response an SDK transport writes to, which keeps the SDK's serialised exceptions from the client: the
 * handshake SDK answers a request its transport refuses (a Content-Type or Accept it does not take, a message it
 * cannot process) with its exception serialised whole, stack trace and internal class names included, or with the
 * container's error page. From the first error status (400 and above, by {@code setStatus} or {@code sendError}) on,
 * what the SDK writes is held back (at most {@value #HELD_BYTES} bytes). {@link #finish} then passes on an answer
 * that is a JSON-RPC error response and nothing else (members {@code jsonrpc}, {@code id}, {@code error}; the
 * 2026-07-28 SDK answers so), and answers anything else with a JSON-RPC error of the same status, -32600 (-32603 for
 * 5xx), and a fixed message for the status ({@link JsonRpcReplies#reject}, as every
 * other refusal of {@code /mcp}). Successful answers, streams included, pass through untouched.
 */
final class SdkErrorReply extends HttpServletResponseWrapper {

    private static final int HELD_BYTES = 64 * 1024;
    private static final Set<String> JSON_RPC_ERROR = Set.of("jsonrpc", "id", "error");

    /** The SDK's error status, or 0 while it has set none. */
    private int error;
    /** What the SDK wrote after its error status. */
    private final Held held = new Held();
    private PrintWriter heldWriter;

    /** The methods the era's transport serves at {@code /mcp}, for the {@code Allow} of its 405 (RFC 9110 §15.5.6). */
    private final String allow;

    SdkErrorReply(HttpServletResponse response, String allow) {
        super(response);
        this.allow = allow;
    }

    @Override
    public void setStatus(int status) {
        if (status >= 400) {
            error = status;
        } else if (error == 0) {
            super.setStatus(status);
        }
    }

    @Override
    public void sendError(int status) {
        error = status;
    }

    @Override
    public void sendError(int status, String message) {
        error = status;
    }

    @Override
    public void setContentType(String type) {
        if (error == 0) {
            super.setContentType(type);
        }
    }

    /** Not once the SDK has set an error: committing now would send its error status as 200. */
    @Override
    public void flushBuffer() throws IOException {
        if (error == 0) {
            super.flushBuffer();
        }
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        return error == 0 ? super.getOutputStream() : held;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (error == 0) {
            return super.getWriter();
        }
        if (heldWriter == null) {
            heldWriter = new PrintWriter(held, false, StandardCharsets.UTF_8);
        }
        return heldWriter;
    }

    /** Answers the SDK's error, when it set one, as a JSON-RPC error echoing {@code id}. */
    void finish(Optional<Object> id) throws IOException {
        if (error == 0) {
            return;
        }
        if (heldWriter != null) {
            heldWriter.flush();
        }
        HttpServletResponse response = (HttpServletResponse) getResponse();
        response.reset();
        Optional<JsonNode> body = held.json();
        if (body.isPresent() && isJsonRpcError(body.get())) {
            response.setStatus(error);
            if (error == 405) {
                response.setHeader("Allow", allow);
            }
            response.setContentType("application/json");
            response.getOutputStream().write(held.bytes());
            return;
        }
        // By the status, not the SDK's exception: it names -32601 (method not found) for a wrong Accept header.
        int code = error >= 500 ? Rejection.INTERNAL_ERROR : Rejection.INVALID_REQUEST;
        JsonRpcReplies.reject(response, new Rejection(error, Optional.of(code), message(error), id,
                error == 405 ? Map.of("Allow", allow) : Map.of()));
    }

    /** A JSON-RPC 2.0 error response with nothing beside it. */
    private static boolean isJsonRpcError(JsonNode body) {
        if (!body.isObject() || !body.path("error").path("code").isInt()) {
            return false;
        }
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            if (!JSON_RPC_ERROR.contains(names.next())) {
                return false;
            }
        }
        return true;
    }

    /** Fixed text for each status the SDK's transports answer with, never the SDK's own words. */
    private static String message(int status) {
        return switch (status) {
            case 400 -> "the MCP transport cannot process this request: check the message and its Accept, "
                    + "Content-Type and Mcp-Session-Id headers";
            case 404 -> "session not found; initialize again";
            case 405 -> "method not allowed on /mcp";
            case 406 -> "not acceptable: Accept must name application/json and text/event-stream";
            case 415 -> MethodStep.NOT_JSON_MESSAGE;
            default -> status >= 500 ? "internal error" : "the MCP transport refused this request";
        };
    }

    /** Where the SDK's error body is held, up to {@value #HELD_BYTES} bytes; the rest is dropped. */
    private static final class Held extends ServletOutputStream {

        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        @Override
        public void write(int b) {
            if (bytes.size() < HELD_BYTES) {
                bytes.write(b);
            }
        }

        @Override
        public void write(byte[] data, int offset, int length) {
            bytes.write(data, offset, Math.max(0, Math.min(length, HELD_BYTES - bytes.size())));
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }

        /** The held body as JSON; empty when it is none (an error page, cut off, or nothing). */
        Optional<JsonNode> json() {
            try {
                return Optional.of(PolicyJson.MAPPER.readTree(bytes.toByteArray()));
            } catch (IOException e) {
                return Optional.empty();
            }
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            throw new UnsupportedOperationException("an SDK error body is never written asynchronously");
        }
    }
}
