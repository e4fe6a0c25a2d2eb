package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.mcp.guard.JsonRpcMessage;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.util.Optional;

/**
 * {@code era}: which protocol era the request speaks ({@link Era#of}); for 2026-07-28 the {@code Mcp-Method} and
 * {@code MCP-Protocol-Version} headers must agree with the body (400 -32600).
 */
final class EraStep implements TransportStep {

    @Override
    public String name() {
        return "era";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        exchange.era = Era.of(exchange.request, exchange.message);
        if (exchange.era != Era.MODERN || exchange.message.isEmpty()) {
            return Optional.empty();
        }
        JsonRpcMessage message = exchange.message.get();
        String method = exchange.request.getHeader(McpHeaders.METHOD);
        if (method != null && message.method().isPresent() && !method.equals(message.method().get())) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                    "Mcp-Method header does not match the request method").withId(message.id()));
        }
        String version = exchange.request.getHeader(McpHeaders.PROTOCOL_VERSION);
        Optional<JsonNode> metaVersion = message.meta(McpHeaders.META_PROTOCOL_VERSION);
        if (version != null && metaVersion.isPresent()
                && !(metaVersion.get().isTextual() && version.trim().equals(metaVersion.get().textValue()))) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                    "MCP-Protocol-Version header does not match _meta").withId(message.id()));
        }
        return Optional.empty();
    }
}
