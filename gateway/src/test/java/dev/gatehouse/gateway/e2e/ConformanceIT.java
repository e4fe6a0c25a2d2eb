package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server scenarios of npm {@code @modelcontextprotocol/conformance} (on Node 22 from the npm package
 * {@code node@22}) against the packaged gateway, through conformance/proxy.mjs, which adds a thread session token.
 * Scenarios that do not apply are listed with reasons in conformance/baseline.yml; the runner fails on any other
 * failure and on a stale baseline entry.
 */
class ConformanceIT {

    @Test
    void applicableScenariosPass(@TempDir Path work) throws Exception {
        Path conformance = NodeClients.conformanceDirectory().toAbsolutePath().normalize();
        NodeClients.install(conformance);
        String node22 = conformance.resolve("node_modules/.bin/node").toString();
        try (GatewayStack stack = GatewayStack.start(work)) {
            int proxyPort = freePort();
            ProcessBuilder proxyCommand = new ProcessBuilder(node22, conformance.resolve("proxy.mjs").toString(),
                    String.valueOf(proxyPort), stack.baseUrl())
                    .redirectErrorStream(true).redirectOutput(work.resolve("proxy.log").toFile());
            proxyCommand.environment().put("GATEHOUSE_TOKEN", stack.attach("a1", "t1", "pi-1"));
            Process proxy = proxyCommand.start();
            try {
                Thread.sleep(1000);
                NodeClients.Run run = NodeClients.run(work, List.of(node22,
                        conformance.resolve("node_modules/.bin/conformance").toString(), "server",
                        "--url", "http://127.0.0.1:" + proxyPort + "/mcp",
                        "--expected-failures", conformance.resolve("baseline.yml").toString()), Map.of(), 600);
                System.out.println(run.output());
                assertEquals(0, run.exitCode(), run.output());
            } finally {
                proxy.destroy();
                proxy.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
