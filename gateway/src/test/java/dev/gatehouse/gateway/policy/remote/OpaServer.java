package dev.gatehouse.gateway.policy.remote;

import static org.junit.jupiter.api.Assertions.fail;

import dev.gatehouse.gateway.policy.OpaCli;
import dev.gatehouse.gateway.policy.TestBundle;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code opa run --server} on a free loopback port, serving a Rego bundle built from {@code policies/} (the
 * pinned OPA is built without a Wasm runtime, so it cannot serve the Wasm bundle itself; the Rego sources are the
 * same, which also makes the parity check cross-engine: topdown against Wasm).
 */
public final class OpaServer implements AutoCloseable {

    private final Process process;
    private final String url;
    private final Path workDir;

    private OpaServer(Process process, String url, Path workDir) {
        this.process = process;
        this.url = url;
        this.workDir = workDir;
    }

    /** Builds the bundle with {@code revision}, starts OPA and waits until {@code /health?bundles} says ready. */
    static OpaServer start(String revision) throws IOException, InterruptedException {
        Path workDir = Files.createTempDirectory("gatehouse-opa");
        Path bundle = workDir.resolve("bundle.tar.gz");
        OpaCli.buildRegoBundle(revision, bundle);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        Process process = new ProcessBuilder(List.of(TestBundle.opa().toString(), "run", "--server",
                "--addr", "127.0.0.1:" + port, "--log-level", "error", "-b", bundle.toString()))
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("opa.log").toFile())
                .start();
        OpaServer server = new OpaServer(process, url, workDir);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < until) {
            if (!process.isAlive()) {
                server.close();
                fail("opa run exited: " + Files.readString(workDir.resolve("opa.log")));
            }
            if (ready(url)) {
                return server;
            }
            Thread.sleep(50);
        }
        server.close();
        throw new IllegalStateException("OPA did not become ready at " + url);
    }

    /** The server's base URL, {@code http://127.0.0.1:<port>}. */
    String url() {
        return url;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try (var files = Files.walk(workDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    /** True once the OPA at {@code url} answers {@code /health?bundles} with 200 (its bundles are activated). */
    public static boolean ready(String url) {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url + "/health?bundles").toURL()
                    .openConnection();
            connection.setConnectTimeout(200);
            connection.setReadTimeout(500);
            try {
                return connection.getResponseCode() == 200;
            } finally {
                connection.disconnect();
            }
        } catch (IOException notYet) {
            return false;
        }
    }
}
