package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.gate.ServedTool;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.transport.ServerHttpHeaderValidator;
import jakarta.servlet.http.HttpServlet;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The 2026-07-28 server (stateless; {@code server/discover}; per-request {@code _meta}): the SDK's
 * {@code io.modelcontextprotocol.modern} server behind its servlet transport, owned by the front servlet. Its tool
 * repository lists the tools {@link ToolListRoute} decided for the request; it never runs a tool, because every
 * {@code tools/call} is answered by {@link ToolCallRoute} before a request reaches the SDK ({@code find} finds
 * nothing). List results are marked private and uncached: they differ per caller and change with the caller's
 * settings.
 */
final class ModernEndpoint {

    private final McpServer server;
    private final HttpServletMcpTransport transport;

    ModernEndpoint(McpJsonMapper json, McpProperties properties, String version) {
        // The gate validates arguments and turns violations into policy facts; the SDK must not answer first.
        JsonSchemaValidator acceptAll = (schema, instance) -> JsonSchemaValidator.ValidationResponse.asValid(null);
        this.server = McpServer.builder()
                .serverInfo(McpSchema.Implementation.builder("gatehouse", version).build())
                // server/discover and -32022 name every revision served here, the handshake's too; requests in a
                // handshake revision never reach this server (the era step routes or refuses them).
                .supportedVersions(McpHeaders.SERVED_VERSIONS)
                .jsonMapper(json)
                .feature(ToolsFeature.ofSync(new GatedTools(), json, acceptAll, 0,
                        McpSchema.CacheScope.PRIVATE))
                .requestStateCodec(HmacRequestStateCodec.builder()
                        .key(requestStateKey(properties))
                        .jsonMapper(json)
                        .principalExtractor(context -> SdkContext.of(context).caller().identity().bindingKey())
                        .build())
                .discoverCache(0, McpSchema.CacheScope.PRIVATE)
                .build();
        // JSON-RPC error statuses stay the SDK's: 2026-07-28 pairs -32601 with 404 and -32600/-32602/-3202x with
        // 400 (SEP-2575), which its clients read as protocol errors, not transport failures.
        this.transport = HttpServletMcpTransport.builder(server)
                .jsonMapper(json)
                .endpoint("/mcp")
                .contextExtractor(SdkContext.extractor())
                // Origin and Host are checked once, for both eras, by the front servlet.
                .httpHeaderValidator(ServerHttpHeaderValidator.NOOP)
                .maxRequestSize(properties.getMaxRequestBytes())
                .build();
    }

    /** The SDK servlet the front servlet delegates to. */
    HttpServlet servlet() {
        return transport;
    }

    /** Ends open streams on shutdown. */
    void close() {
        transport.closeGracefully();
        server.closeGracefully();
    }

    /** The 2026-07-28 wire form of a tool reply. */
    static McpSchema.CallToolResult result(ToolReply reply) {
        return McpSchema.CallToolResult.builder()
                .addContent(McpSchema.TextContent.builder(JsonText.of(reply.structuredContent())).build())
                .structuredContent(reply.structuredContent())
                .isError(reply.isError())
                .meta(reply.meta())
                .build();
    }

    private static byte[] requestStateKey(McpProperties properties) {
        return properties.getRequestStateKey().map(Base64.getDecoder()::decode).orElseGet(() -> {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            return key;
        });
    }

    private record GatedTools() implements McpSyncToolRepository {

        @Override
        public ToolsPage list(io.modelcontextprotocol.modern.server.McpRequestContext context, String cursor) {
            return ToolsPage.of(SdkContext.of(context.transportContext()).listedTools().stream()
                    .map(GatedTools::definition).toList());
        }

        @Override
        public McpSyncTool find(io.modelcontextprotocol.modern.server.McpRequestContext context, String name) {
            return null;
        }

        private static McpSchema.Tool definition(ServedTool tool) {
            return McpSchema.Tool.builder(tool.name(), tool.schema().inputSchema())
                    .title(tool.schema().title())
                    .description(tool.schema().description())
                    .build();
        }
    }
}
