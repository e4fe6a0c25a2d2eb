package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.gate.RegisteredTool;
import dev.gatehouse.gateway.gate.ToolRegistry;
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
import reactor.core.publisher.Mono;

/**
 * The handshake-era server (2025-11-25, 2025-06-18): the SDK's Streamable HTTP servlet, owned by the front servlet
 * and never mounted on its own. It serves initialize, ping, notifications, sessions and tools/list; its list filter
 * shows exactly the tools {@link ToolListRoute} decided for the request. It never runs a tool: every {@code tools/call} is
 * answered by {@link ToolCallRoute} before a request reaches the SDK, so the registered tools' call handler only
 * refuses.
 */
final class HandshakeEndpoint {

    private final HttpServletStreamableServerTransportProvider transport;
    private final McpSyncServer server;

    HandshakeEndpoint(ToolRegistry registry, McpJsonMapper json, McpProperties properties, String version) {
        this.transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json)
                .mcpEndpoint("/mcp")
                .contextExtractor(CallerContext.extractor())
                // Origin and Host are checked once, for both eras, by the front servlet.
                .securityValidator(ServerTransportSecurityValidator.NOOP)
                .maxRequestSize(properties.getMaxRequestBytes())
                .build();
        List<SyncToolSpecification> tools = registry.all().stream().map(HandshakeEndpoint::spec).toList();
        this.server = McpServer.sync(new ServedVersions(transport))
                .serverInfo(new McpSchema.Implementation("gatehouse", "Gatehouse", version))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                // The gate validates arguments and turns violations into policy facts.
                .validateToolInputs(false)
                .addToolFilter((context, tool) -> CallerContext.listed(context).stream()
                        .anyMatch(listed -> listed.name().equals(tool.name())))
                .tools(tools)
                .build();
    }

    /** The SDK servlet the front servlet delegates to. */
    HttpServlet servlet() {
        return transport;
    }

    /** Ends open streams on shutdown. */
    void close() {
        server.closeGracefully();
    }

    private static SyncToolSpecification spec(RegisteredTool tool) {
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
