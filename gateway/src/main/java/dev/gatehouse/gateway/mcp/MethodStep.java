package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.JsonContentType;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code method}: what {@code /mcp} serves at all, before any body is read. The Streamable HTTP transport has
 * {@code POST} (a JSON-RPC message), {@code GET} (a stream) and {@code DELETE} (the end of a session); any other
 * method is 405 with {@code Allow} (RFC 9110 §15.5.6). A {@code POST} body is JSON in UTF-8, so it must be declared
 * so by the gateway's one rule for request bodies ({@link JsonContentType}: one {@code application/json}, with no
 * parameter but {@code charset=utf-8}), and it is sent without a {@code Content-Encoding} (RFC 9110 §15.5.16 answers
 * an unsupported one with 415 and {@code Accept-Encoding}); anything else is 415.
 * Without this step only the SDK's own methods checked the media type, so a {@code tools/call} sent as
 * {@code text/plain} was served while a {@code tools/list} sent so was refused. Both answers close the connection:
 * the body was not read.
 */
final class MethodStep implements TransportStep {

    static final String ALLOW = "GET, POST, DELETE";
    private static final Set<String> SERVED = Set.of("GET", "POST", "DELETE");
    private static final Rejection NOT_SERVED = new Rejection(405, Optional.of(Rejection.INVALID_REQUEST),
            "method not allowed on /mcp: " + ALLOW + " only", Optional.empty(),
            Map.of("Allow", ALLOW, "Connection", "close"));
    /** What a 415 says: what is accepted, as the admin API's 415 says it. */
    static final String NOT_JSON_MESSAGE = "unsupported media type: Content-Type must be application/json, or"
            + " application/json; charset=utf-8";
    private static final Rejection NOT_JSON = new Rejection(415, Optional.of(Rejection.INVALID_REQUEST),
            NOT_JSON_MESSAGE, Optional.empty(), Map.of("Connection", "close"));

    private static final Rejection ENCODED = new Rejection(415, Optional.of(Rejection.INVALID_REQUEST),
            "unsupported media type: a request body is sent without Content-Encoding", Optional.empty(),
            Map.of("Connection", "close", "Accept-Encoding", "identity"));

    @Override
    public String name() {
        return "method";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        if (!SERVED.contains(exchange.request.getMethod())) {
            return Optional.of(NOT_SERVED);
        }
        if (exchange.post() && !JsonContentType.declared(exchange.request.getHeaders("Content-Type"))) {
            return Optional.of(NOT_JSON);
        }
        String encoding = exchange.request.getHeader("Content-Encoding");
        if (exchange.post() && encoding != null && !encoding.isBlank()
                && !encoding.strip().equalsIgnoreCase("identity")) {
            return Optional.of(ENCODED); // the body would be read as if it were not encoded
        }
        return Optional.empty();
    }
}
