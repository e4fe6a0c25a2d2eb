package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.gate.Listing;
import dev.gatehouse.gateway.gate.ServedTool;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityValidator;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import jakarta.servlet.http.HttpServlet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import reactor.core.publisher.Mono;

/**
 * The handshake-era server (2025-11-25, 2025-06-18): the SDK's Streamable HTTP servlet, owned by the front servlet
 * and never mounted on its own. It serves initialize, ping, notifications, sessions and tools/list; its list filter
 * shows exactly the tools {@link ToolListRoute} decided for the request. The SDK keeps tool definitions of its own,
 * so they are published anew from each revision that decides a listing ({@link #publish}): a hot-swapped revision's
 * schemas are what the next tools/list shows. It never runs a tool: every {@code tools/call} is answered by
 * {@link ToolCallRoute} before a request reaches the SDK, so the published tools' call handler only refuses.
 */
final class HandshakeEndpoint {

    private final HttpServletStreamableServerTransportProvider transport;
    private final McpSyncServer server;
    private String published = "";

    HandshakeEndpoint(McpJsonMapper json, McpProperties properties, String version) {
        this.transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json)
                .mcpEndpoint("/mcp")
                .contextExtractor(SdkContext.extractor())
                // Origin and Host are checked once, for both eras, by the front servlet.
                .securityValidator(ServerTransportSecurityValidator.NOOP)
                .maxRequestSize(properties.getMaxRequestBytes())
                // A session with no request and no open stream for a whole sweep interval is closed and dropped:
                // without the sweep the SDK keeps every session a client never ends.
                .sessionSweepInterval(properties.getSessionIdleTimeout())
                .build();
        this.server = McpServer.sync(new ServedVersions(transport))
                .serverInfo(new McpSchema.Implementation("gatehouse", "Gatehouse", version))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                // The gate validates arguments and turns violations into policy facts.
                .validateToolInputs(false)
                .addToolFilter((context, tool) -> SdkContext.of(context).listedTools().stream()
                        .anyMatch(listed -> listed.name().equals(tool.name())))
                .build();
    }

    /**
     * Makes the SDK's tool definitions those of the revision that decided {@code listing}, when they are another
     * revision's. A listing of an older revision still in flight does not bring its definitions back: only the
     * revision published last is compared, and an older one differs from it only while the newer one decides.
     */
    synchronized void publish(Listing.Listed listing) {
        if (listing.revision().equals(published)) {
            return;
        }
        // Replaced in place (the SDK logs each replacement), so a concurrent listing never misses a tool.
        listing.table().all().forEach(tool -> server.addTool(spec(tool)));
        Set<String> served = listing.table().all().stream().map(ServedTool::name).collect(Collectors.toSet());
        server.listTools().stream().map(McpSchema.Tool::name).filter(name -> !served.contains(name))
                .forEach(server::removeTool);
        published = listing.revision();
    }

    /** The SDK servlet the front servlet delegates to. */
    HttpServlet servlet() {
        return transport;
    }

    /** Ends open streams on shutdown. */
    void close() {
        server.closeGracefully();
    }

    private static SyncToolSpecification spec(ServedTool tool) {
        return SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder()
                        .name(tool.name())
                        .title(tool.schema().title())
                        .description(tool.schema().description())
                        .inputSchema(tool.schema().inputSchema())
                        .build())
                .callHandler((exchange, request) -> {
                    throw new IllegalStateException("tools/call reached the SDK; ToolCallRoute answers every call");
                })
                .build();
    }

    /**
     * The SDK transport as the server sees it, offering only {@link McpHeaders#HANDSHAKE_VERSIONS} (the SDK's own
     * list adds 2025-03-26). Oldest first: an initialize asking for any other revision is answered with the last,
     * 2025-11-25, which is how the handshake refuses a revision (the client decides whether to go on).
     */
    private record ServedVersions(HttpServletStreamableServerTransportProvider sdk)
            implements McpStreamableServerTransportProvider {

        private static final List<String> OLDEST_FIRST = oldestFirst();

        private static List<String> oldestFirst() {
            List<String> versions = new ArrayList<>(McpHeaders.HANDSHAKE_VERSIONS);
            Collections.reverse(versions);
            return List.copyOf(versions);
        }

        @Override
        public void setSessionFactory(McpStreamableServerSession.Factory factory) {
            sdk.setSessionFactory(factory);
        }

        @Override
        public Mono<Void> notifyClients(String method, Object params) {
            return sdk.notifyClients(method, params);
        }

        @Override
        public Mono<Void> notifyClient(String sessionId, String method, Object params) {
            return sdk.notifyClient(sessionId, method, params);
        }

        @Override
        public void close() {
            sdk.close();
        }

        @Override
        public Mono<Void> closeGracefully() {
            return sdk.closeGracefully();
        }

        @Override
        public List<String> protocolVersions() {
            return OLDEST_FIRST;
        }
    }

    /** The handshake-era wire form of a tool reply. */
    static McpSchema.CallToolResult result(ToolReply reply) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(JsonText.of(reply.structuredContent()))
                .structuredContent(reply.structuredContent())
                .isError(reply.isError())
                .meta(reply.meta())
                .build();
    }
}
