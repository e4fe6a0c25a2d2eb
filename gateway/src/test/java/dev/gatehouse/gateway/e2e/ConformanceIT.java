package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every server scenario of npm {@code @modelcontextprotocol/conformance} (the version pinned in
 * conformance/package.json, on Node 22 from the npm package {@code node@22}) against the packaged gateway, at each
 * wire it applies to, through conformance/run.sh: the same three passes {@code make conformance} runs, through
 * proxy.mjs, which adds a thread session token. Scenarios and checks that do not apply are listed with reasons in
 * conformance/baseline.yml; the runner fails on any other failure or warning and on a baseline entry that passes.
 */
class ConformanceIT {

    @Test
    void applicableScenariosPass(@TempDir Path work) throws Exception {
        Path conformance = NodeClients.conformanceDirectory().toAbsolutePath().normalize();
        NodeClients.install(conformance);
        try (GatewayStack stack = GatewayStack.start(work)) {
            NodeClients.Run run = NodeClients.run(work, List.of("bash", conformance.resolve("run.sh").toString(),
                    stack.baseUrl()), Map.of(
                            "GATEHOUSE_TOKEN", stack.attach("a1", "t1", "pi-1"),
                            "GATEHOUSE_CONFORMANCE_PROXY_PORT", String.valueOf(freePort()),
                            "GATEHOUSE_CONFORMANCE_OUT", work.resolve("conformance").toString()), 900);
            System.out.println(run.output());
            assertEquals(0, run.exitCode(), run.output() + "\n--- gateway log ---\n" + stack.log("gateway"));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
