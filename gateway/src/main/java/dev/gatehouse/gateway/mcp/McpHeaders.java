package dev.gatehouse.gateway.mcp;

import java.util.Set;

/** MCP HTTP header names and protocol revisions the front servlet reads (MCP Streamable HTTP transport). */
final class McpHeaders {

    /** Handshake-era session id, issued by the server on initialize. */
    static final String SESSION_ID = "Mcp-Session-Id";
    /** The request's protocol revision. */
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
    /** 2026-07-28: the JSON-RPC method, mirrored in a header. */
    static final String METHOD = "Mcp-Method";
    /** 2026-07-28: the protocol revision inside {@code params._meta}. */
    static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    /** Revisions served by the stateless (2026-07-28) server. */
    static final Set<String> MODERN_VERSIONS = Set.of("2026-07-28");

    private McpHeaders() {
    }
}
