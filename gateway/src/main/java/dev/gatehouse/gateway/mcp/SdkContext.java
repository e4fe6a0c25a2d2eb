package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.gate.ServedTool;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpTransportContextExtractor;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an SDK transport's handlers know of the request they serve, as one typed value: the front servlet builds it
 * from the {@link Exchange} and hands it over with the request itself ({@link BufferedRequest}); both transports'
 * context extractor puts it into the {@link McpTransportContext}. It is the only place a handler reads identity from
 * (never {@code _meta}, arguments or identity headers) and the only way a decided tools/list reaches an SDK.
 *
 * @param caller the authenticated caller of the request
 * @param listed the tools the gate decided this request lists ({@link ToolListRoute}); empty for any other request
 */
record SdkContext(AuthenticatedCaller caller, Optional<List<ServedTool>> listed) {

    /** Transport-context key of this value. */
    private static final String KEY = "dev.gatehouse.request";

    SdkContext {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(listed, "listed");
    }

    /** The extractor both SDK transports use: the value the front servlet handed over with the request. */
    static McpTransportContextExtractor<HttpServletRequest> extractor() {
        return request -> request instanceof BufferedRequest handed
                ? McpTransportContext.create(Map.of(KEY, handed.context()))
                : McpTransportContext.EMPTY;
    }

    /**
     * The value of the request a transport context belongs to.
     *
     * @throws IllegalStateException when the request did not come through the front servlet (a wiring bug)
     */
    static SdkContext of(McpTransportContext context) {
        if (context != null && context.get(KEY) instanceof SdkContext gated) {
            return gated;
        }
        throw new IllegalStateException("MCP request reached an SDK handler without the front servlet's context");
    }

    /**
     * The tools/list the gate decided for this request: one PDP evaluation however often the handshake-era SDK asks
     * its list filter.
     *
     * @throws IllegalStateException when the request is not a decided tools/list (a wiring bug)
     */
    List<ServedTool> listedTools() {
        return listed.orElseThrow(() -> new IllegalStateException("tools/list reached the SDK without a decided"
                + " listing"));
    }
}
