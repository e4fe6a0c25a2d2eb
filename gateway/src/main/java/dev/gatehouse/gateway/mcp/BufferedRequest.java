package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.BufferedBodyRequest;
import dev.gatehouse.gateway.JsonDeclaredRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Set;
import java.util.TreeSet;

/**
 * The request as the front servlet hands it to an SDK transport: the body the guard already read (and checked),
 * replayed; a {@code POST}'s {@code Content-Type}, which the method step found JSON in UTF-8, as exactly
 * {@code application/json} ({@link JsonDeclaredRequest}); request headers the SDK must not see hidden (a client-chosen
 * {@code Mcp-Session-Id} on initialize); and what the transport steps and the gate established, as the typed
 * {@link SdkContext} the SDK's context extractor reads.
 */
final class BufferedRequest extends BufferedBodyRequest {

    private final Set<String> hidden = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    private final SdkContext context;

    BufferedRequest(HttpServletRequest request, byte[] body, Set<String> hiddenHeaders, SdkContext context) {
        super("POST".equals(request.getMethod()) ? new JsonDeclaredRequest(request) : request, body);
        this.hidden.addAll(hiddenHeaders);
        this.context = context;
    }

    /** What the SDK's handlers may know of this request. */
    SdkContext context() {
        return context;
    }

    @Override
    public String getHeader(String name) {
        return hidden.contains(name) ? null : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        return hidden.contains(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
    }

    @Override
    public Enumeration<String> getHeaderNames() {
        return Collections.enumeration(Collections.list(super.getHeaderNames()).stream()
                .filter(n -> !hidden.contains(n)).toList());
    }
}
