package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.BufferedBodyRequest;
import dev.gatehouse.gateway.HiddenHeaders;
import dev.gatehouse.gateway.JsonDeclaredRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;

/**
 * The request as the front servlet hands it to an SDK transport: the body the guard already read (and checked),
 * replayed; a {@code POST}'s {@code Content-Type}, which the method step found JSON in UTF-8, as exactly
 * {@code application/json} ({@link JsonDeclaredRequest}); request headers the SDK must not see hidden (a client-chosen
 * {@code Mcp-Session-Id} on initialize); and what the transport steps and the gate established, as the typed
 * {@link SdkContext} the SDK's context extractor reads.
 */
final class BufferedRequest extends BufferedBodyRequest {

    private final SdkContext context;

    BufferedRequest(HttpServletRequest request, byte[] body, Set<String> hiddenHeaders, SdkContext context) {
        super(new HiddenHeaders("POST".equals(request.getMethod()) ? new JsonDeclaredRequest(request) : request,
                hiddenHeaders), body);
        this.context = context;
    }

    /** What the SDK's handlers may know of this request. */
    SdkContext context() {
        return context;
    }
}
