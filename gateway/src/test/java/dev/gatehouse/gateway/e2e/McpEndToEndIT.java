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
                    "O1_TOKEN", stack.outsideAgentToken("o1", "read-only"),
                    "O2_TOKEN", stack.outsideAgentToken("o2", "full-access"),
                    "MINIMAL_ARGUMENTS", minimal.toString());
            NodeClients.Run run = NodeClients.run(List.of("node", "e2e.mjs", era), env, 300);
            System.out.println(run.output());
            assertEquals(0, run.exitCode(), run.output() + "\n--- gateway log ---\n" + stack.log("gateway"));
        }
    }
}
