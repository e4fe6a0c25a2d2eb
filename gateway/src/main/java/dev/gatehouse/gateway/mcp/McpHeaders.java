package dev.gatehouse.gateway.mcp;

import java.util.List;

/** MCP HTTP header names and protocol revisions the front servlet reads (MCP Streamable HTTP transport). */
final class McpHeaders {

    /** Handshake-era session id, issued by the server on initialize. */
    static final String SESSION_ID = "Mcp-Session-Id";
    /** The request's protocol revision. */
    static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
    /** 2026-07-28: the JSON-RPC method, mirrored in a header. */
    static final String METHOD = "Mcp-Method";
    /** 2026-07-28: {@code params.name} (tools/call, prompts/get) or {@code params.uri} (resources/read). */
    static final String NAME = "Mcp-Name";
    /** 2026-07-28: the protocol revision inside {@code params._meta}. */
    static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    /** 2026-07-28: the client's capabilities inside {@code params._meta} (required on every request). */
    static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    /** Revisions served statelessly (2026-07-28 wire). */
    static final List<String> MODERN_VERSIONS = List.of("2026-07-28");
    /**
     * Revisions served with the initialize handshake. 2025-03-26 is not served: an initialize asking for it is
     * answered with 2025-11-25 (the handshake's negotiation), and a request naming it in
     * {@code MCP-Protocol-Version} gets 400 with -32022.
     */
    static final List<String> HANDSHAKE_VERSIONS = List.of("2025-11-25", "2025-06-18");
    /** Every revision served at {@code /mcp}, newest first: what {@code server/discover} and -32022 list. */
    static final List<String> SERVED_VERSIONS = List.of("2026-07-28", "2025-11-25", "2025-06-18");

    private McpHeaders() {
    }
}
