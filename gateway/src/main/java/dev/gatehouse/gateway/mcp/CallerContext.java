package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.gate.ServedTool;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpTransportContextExtractor;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;

/**
 * Carries the authenticated caller from the front servlet into the SDK's handlers. The front servlet stores it as a
 * request attribute; both transports' context extractor copies it into the {@link McpTransportContext}, the only
 * place a handler reads identity from (never from {@code _meta}, arguments or identity headers).
 */
public final class CallerContext {

    /** Request attribute and transport-context key of the {@link AuthenticatedCaller}. */
    public static final String CALLER = "dev.gatehouse.caller";
    /** Request attribute and transport-context key of this request's decided tools/list ({@link ToolListRoute}). */
    public static final String LISTED = "dev.gatehouse.listed";

    private CallerContext() {
    }

    /** The extractor both SDK transports use. */
    public static McpTransportContextExtractor<HttpServletRequest> extractor() {
        return request -> {
            Object caller = request.getAttribute(CALLER);
            if (caller == null) {
                return McpTransportContext.EMPTY;
            }
            Object listed = request.getAttribute(LISTED);
            return McpTransportContext.create(listed == null ? Map.of(CALLER, caller)
                    : Map.of(CALLER, caller, LISTED, listed));
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
     * The tools/list the front servlet decided for this request ({@link ToolListRoute}): one PDP evaluation however
     * often the handshake-era SDK asks its list filter.
     *
     * @throws IllegalStateException when the request was not decided by the front servlet (a wiring bug)
     */
    @SuppressWarnings("unchecked")
    public static List<ServedTool> listed(McpTransportContext context) {
        if (context != null && context.get(LISTED) instanceof List<?> tools) {
            return (List<ServedTool>) tools;
        }
        throw new IllegalStateException("tools/list reached the SDK without a decided listing");
    }
}
