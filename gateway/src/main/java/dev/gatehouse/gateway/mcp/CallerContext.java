package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.context.AuthenticatedCaller;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpTransportContextExtractor;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Carries the authenticated caller from the front servlet into the SDK's handlers. The front servlet stores it as a
 * request attribute; both transports' context extractor copies it into the {@link McpTransportContext}, the only
 * place a handler reads identity from (never from {@code _meta}, arguments or identity headers).
 */
public final class CallerContext {

    /** Request attribute and transport-context key of the {@link AuthenticatedCaller}. */
    public static final String CALLER = "dev.gatehouse.caller";
    /** Transport-context key of this request's tools/list memo. */
    private static final String LISTING = "dev.gatehouse.listing";

    private CallerContext() {
    }

    /** The extractor both SDK transports use. */
    public static McpTransportContextExtractor<HttpServletRequest> extractor() {
        return request -> {
            Object caller = request.getAttribute(CALLER);
            return caller == null ? McpTransportContext.EMPTY
                    : McpTransportContext.create(Map.of(CALLER, caller, LISTING, new AtomicReference<List<String>>()));
        };
    }

    /**
     * The caller of the request this context belongs to.
     *
     * @throws IllegalStateException when the front servlet did not authenticate the request (a wiring bug)
     */
    public static AuthenticatedCaller caller(McpTransportContext context) {
        if (context != null && context.get(CALLER) instanceof AuthenticatedCaller caller) {
            return caller;
        }
        throw new IllegalStateException("MCP request reached a handler without an authenticated caller");
    }

    /**
     * The visible tool names of this request, computed once: the handshake-era SDK asks its list filter once per
     * tool, and tools/list must cost one PDP evaluation.
     */
    @SuppressWarnings("unchecked")
    public static List<String> visibleOnce(McpTransportContext context, Supplier<List<String>> compute) {
        AtomicReference<List<String>> memo = (AtomicReference<List<String>>) context.get(LISTING);
        return memo.updateAndGet(current -> current != null ? current : compute.get());
    }
}
