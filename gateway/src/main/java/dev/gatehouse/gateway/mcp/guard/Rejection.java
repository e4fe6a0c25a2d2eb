package dev.gatehouse.gateway.mcp.guard;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A request the transport guard refuses before it reaches authentication, the gate or the SDK (a typed
 * rejection that carries its HTTP status).
 *
 * @param status       the HTTP status (400, 403, 404, 413 …)
 * @param jsonRpcCode  the JSON-RPC error code for the body, when the answer is a JSON-RPC error
 * @param message      fixed text, never derived from the request
 * @param id           the request id to echo, when it was read and valid; JSON {@code null} otherwise
 * @param headers      extra response headers (e.g. {@code Connection: close})
 * @param data         the JSON-RPC error's {@code data} (e.g. -32022's {@code {supported, requested}}), when it has one
 */
public record Rejection(int status, Optional<Integer> jsonRpcCode, String message, Optional<Object> id,
        Map<String, String> headers, Optional<Object> data) {

    /** JSON-RPC 2.0: invalid JSON. */
    public static final int PARSE_ERROR = -32700;
    /** JSON-RPC 2.0: not a valid request object. */
    public static final int INVALID_REQUEST = -32600;
    /** JSON-RPC 2.0: invalid method parameters. */
    public static final int INVALID_PARAMS = -32602;
    /** MCP 2026-07-28: an {@code Mcp-*} or {@code MCP-Protocol-Version} header disagrees with the body or is missing. */
    public static final int HEADER_MISMATCH = -32020;
    /** MCP 2026-07-28: the requested protocol revision is not served ({@code data: {supported, requested}}). */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;
    /** JSON-RPC 2.0: internal error; used with HTTP 503 when nothing was decided (store or PDP did not answer). */
    public static final int INTERNAL_ERROR = -32603;
    /** Seconds a client should wait before retrying an {@link #unavailable()} answer. */
    public static final String RETRY_AFTER_SECONDS = "1";

    public Rejection {
        Objects.requireNonNull(jsonRpcCode, "jsonRpcCode");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(id, "id");
        headers = Map.copyOf(headers);
        Objects.requireNonNull(data, "data");
    }

    /** A rejection without error data. */
    public Rejection(int status, Optional<Integer> jsonRpcCode, String message, Optional<Object> id,
            Map<String, String> headers) {
        this(status, jsonRpcCode, message, id, headers, Optional.empty());
    }

    /** HTTP {@code status} with a JSON-RPC error {@code code} and {@code "id": null}. */
    public static Rejection jsonRpc(int status, int code, String message) {
        return new Rejection(status, Optional.of(code), message, Optional.empty(), Map.of());
    }

    /**
     * HTTP 503 {@code unavailable} with {@code Retry-After}: the shared store did not answer, so nothing was decided
     * (not a policy denial); the request may be retried as it is.
     */
    public static Rejection unavailable() {
        return new Rejection(503, Optional.of(INTERNAL_ERROR), "unavailable", Optional.empty(),
                Map.of("Retry-After", RETRY_AFTER_SECONDS));
    }

    /** The same rejection echoing a valid request id. */
    public Rejection withId(Optional<Object> requestId) {
        return new Rejection(status, jsonRpcCode, message, requestId, headers, data);
    }

    /** The same rejection with the error's {@code data} member (serialised as JSON). */
    public Rejection withData(Object errorData) {
        return new Rejection(status, jsonRpcCode, message, id, headers, Optional.of(errorData));
    }
}
