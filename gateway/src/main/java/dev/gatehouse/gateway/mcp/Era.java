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
     * The era a request speaks, decided by what only that era sends, the body first:
     * <ol>
     * <li>a protocol version in {@code params._meta}: modern (only the stateless era puts it there, so an
     * {@code initialize} carrying one is a 2026-07-28 request for a method that revision removed);</li>
     * <li>{@code initialize} without it: the handshake, whatever headers come with it (a dual-era client sends
     * {@code Mcp-Method} on every request);</li>
     * <li>an {@code MCP-Protocol-Version} header: modern for a stateless revision, the handshake for any other
     * (an unsupported one is refused there, 400 -32022);</li>
     * <li>an {@code Mcp-Session-Id}: the handshake; an {@code Mcp-Method} header: modern;</li>
     * <li>otherwise the handshake (GET and DELETE included), whose session step asks for initialize.</li>
     * </ol>
     */
    static Era of(HttpServletRequest request, Optional<JsonRpcMessage> message) {
        if (message.flatMap(m -> m.meta(McpHeaders.META_PROTOCOL_VERSION)).isPresent()) {
            return MODERN;
        }
        if (message.flatMap(JsonRpcMessage::method).filter("initialize"::equals).isPresent()) {
            return HANDSHAKE;
        }
        String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
        if (version != null) {
            return McpHeaders.MODERN_VERSIONS.contains(version.trim()) ? MODERN : HANDSHAKE;
        }
        if (request.getHeader(McpHeaders.SESSION_ID) != null) {
            return HANDSHAKE;
        }
        return request.getHeader(McpHeaders.METHOD) != null ? MODERN : HANDSHAKE;
    }
}
