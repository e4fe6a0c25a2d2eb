package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.support.MinimalArguments;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole system with real MCP clients, once per protocol era, each on a fresh stack (the scenario interrupts
 * runs and writes pages): {@code @modelcontextprotocol/client} 2.x pinned to 2026-07-28 and
 * {@code @modelcontextprotocol/sdk} 1.x negotiating 2025-11-25. The scenario and its expectations are in
 * src/test/e2e/e2e.mjs: identity keys and headers, a capability turned off and on mid-session, a supervised
 * plan-mode thread launching within and above its modes, an ended run, read-only and narrowed outside agents,
 * unknown tools, wiki and project work, a2 kept out of a1's pages, and tools/list = allowed calls per caller kind.
 * Outside agents' tokens come from the stack's authorization server (client credentials) and are checked through
 * its JWKS; src/test/e2e/oauth.mjs has each era's client find and use that server by itself.
 */
class McpEndToEndIT {

    @BeforeAll
    static void installClients() throws Exception {
        NodeClients.install(NodeClients.directory());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"modern", "handshake"})
    void realClientsSeeTheGatedEndpoint(String era, @TempDir Path work) throws Exception {
        try (GatewayStack stack = GatewayStack.start(work)) {
            String projectAndWiki = "{\"browserAccess\":%s,\"project\":{\"enabled\":true,"
                    + "\"projectServiceProjectId\":\"ps-demo\"},\"wiki\":{\"read\":true,\"write\":true}}";
            stack.settings("a1", projectAndWiki.formatted("true"));
            stack.settings("a2", projectAndWiki.formatted("false"));
            stack.registerOutsideAgent("o1", "oa-o1", "{\"wiki\":{\"read\":true,\"write\":false}}");
            Path minimal = work.resolve("minimal-arguments.json");
            new ObjectMapper().writeValue(minimal.toFile(), MinimalArguments.load());
            Map<String, String> env = Map.of(
                    "MCP_URL", stack.mcpUrl(),
                    "ADMIN_URL", stack.baseUrl(),
                    "ADMIN_CREDENTIAL", stack.adminCredential,
                    "A1_TOKEN", stack.attach("a1", "t1", "pi-1"),
                    "A2_TOKEN", stack.attach("a2", "t2", "pi-2"),
                    "A1_ENDED_TOKEN", stack.attach("a1", "t3", "pi-1"),
                    "O1_TOKEN", stack.outsideAgentToken("o1"),
                    "O2_TOKEN", stack.outsideAgentToken("o2"),
                    "MINIMAL_ARGUMENTS", minimal.toString());
            NodeClients.Run run = NodeClients.run(List.of("node", "e2e.mjs", era), env, 300);
            System.out.println(run.output());
            assertEquals(0, run.exitCode(), run.output() + "\n--- gateway log ---\n" + stack.log("gateway"));
        }
    }

    /**
     * The OAuth discovery chain with each SDK's own OAuth support, on one stack: 401 → protected-resource metadata →
     * authorization-server metadata → client-credentials token for this resource → calls within the ceiling the
     * authorization server approved; a client it did not approve is refused.
     */
    @org.junit.jupiter.api.Test
    void outsideAgentsAuthorizeThroughDiscovery(@TempDir Path work) throws Exception {
        try (GatewayStack stack = GatewayStack.start(work)) {
            stack.settings("o1", "{\"wiki\":{\"read\":true,\"write\":false}}");
            Map<String, String> env = Map.of("MCP_URL", stack.mcpUrl(), "OAUTH_ISSUER", stack.issuer(),
                    "OAUTH_SCOPE", GatewayStack.SCOPE);
            for (String era : List.of("modern", "handshake")) {
                NodeClients.Run run = NodeClients.run(List.of("node", "oauth.mjs", era), env, 120);
                System.out.println(run.output());
                assertEquals(0, run.exitCode(), run.output() + "\n--- gateway log ---\n" + stack.log("gateway")
                        + "\n--- local-auth log ---\n" + stack.log("local-auth"));
            }
        }
    }
}
