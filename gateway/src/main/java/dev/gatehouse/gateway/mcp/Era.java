package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.JsonRpcMessage;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * The two protocol eras served at {@code /mcp}. The split ends in the transport: from authentication on, both eras
 * build the same decision input and get the same decision (docs/design.md).
 */
enum Era {
    /** 2026-07-28: stateless, {@code server/discover}, version and client info in every request's {@code _meta}. */
    MODERN,
    /** 2025-11-25 and 2025-06-18: initialize handshake and an {@code Mcp-Session-Id}. */
    HANDSHAKE;

    /**
     * Modern when the request carries an {@code Mcp-Method} header, a modern {@code MCP-Protocol-Version}, or a
     * protocol version in {@code params._meta}; otherwise the handshake era (GET and DELETE included).
     */
    static Era of(HttpServletRequest request, Optional<JsonRpcMessage> message) {
        if (request.getHeader(McpHeaders.METHOD) != null) {
            return MODERN;
        }
        String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
        if (version != null && McpHeaders.MODERN_VERSIONS.contains(version.trim())) {
            return MODERN;
        }
        return message.flatMap(m -> m.meta(McpHeaders.META_PROTOCOL_VERSION)).isPresent() ? MODERN : HANDSHAKE;
    }
}
