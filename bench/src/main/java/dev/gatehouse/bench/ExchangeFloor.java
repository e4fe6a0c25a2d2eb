package dev.gatehouse.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

/**
 * What one HTTP exchange that does almost nothing costs at concurrency 1 on this machine: the floor under the issue
 * "the gate's own cost"'s bar of gated p50 within 0.25 ms of direct, since a gated call is one more exchange (client
 * to gateway) around the direct one. Local-services and the gateway as processes ({@link Stack}); one client thread
 * sends {@code requests} sequential requests to each target after as many warm-up requests, in {@code rounds}
 * interleaved rounds:
 * <ul>
 * <li>{@code mcp_unauthenticated}: {@code POST /mcp} without a token, answered 401 by the MCP endpoint's transport
 *     steps (Jetty, the front servlet, the JSON-RPC body read, authentication);</li>
 * <li>{@code gateway_liveness}: {@code GET /health/liveness}, a Micronaut controller answering 200;</li>
 * <li>{@code backend_unauthenticated}: local-services' {@code GET /health} without its credential, answered 401.</li>
 * </ul>
 * Prints and writes to {@code out} each target's p50 and p90 in µs per round (JDK HTTP client, HTTP/1.1, kept-alive
 * connections), and {@code server_cpu_us_per_request}: the CPU time (user and system, all threads, {@link CpuTime})
 * the process that answered (the gateway's JVM, or local-services') spent per measured request, the floor under the
 * issue's bar of gateway CPU per gated call, which is one such exchange in and one out around the gate's work.
 * With {@code concurrency} above 1, that many client threads share the requests, each on its own connection.
 *
 * <p>Arguments (key=value): {@code local-jar}, {@code gateway-jar}, {@code bundle}, {@code work}, {@code out},
 * {@code requests} (default 5000), {@code rounds} (default 3), {@code concurrency} (default 1),
 * {@code gateway-options}.
 */
public final class ExchangeFloor {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private ExchangeFloor() {
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = HarnessArgs.parse(argv);
        int requests = Integer.parseInt(args.getOrDefault("requests", "5000"));
        int rounds = Integer.parseInt(args.getOrDefault("rounds", "3"));
        int concurrency = Integer.parseInt(args.getOrDefault("concurrency", "1"));
        Map<String, Object> report = new LinkedHashMap<>();
        try (Stack stack = Stack.start(args)) {
            Map<String, HttpRequest> targets = new LinkedHashMap<>();
            targets.put("mcp_unauthenticated", HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/mcp"))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,"
                            + "\"method\":\"tools/list\"}")).build());
            targets.put("gateway_liveness",
                    HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/health/liveness")).GET().build());
            targets.put("backend_unauthenticated",
                    HttpRequest.newBuilder(URI.create(stack.localUrl() + "/health")).GET().build());
            for (int round = 1; round <= rounds; round++) {
                Map<String, Object> figures = new LinkedHashMap<>();
                for (Map.Entry<String, HttpRequest> target : targets.entrySet()) {
                    boolean backend = target.getKey().startsWith("backend");
                    figures.put(target.getKey(), time(target.getValue(), requests, concurrency,
                            () -> backend ? CpuTime.of(stack).backend() : CpuTime.of(stack).gateway()));
                }
                System.out.println(">> round " + round + ": " + figures);
                report.put("round_" + round, figures);
            }
        }
        Files.writeString(Path.of(args.get("out")), LoadHarness.JSON.writeValueAsString(report));
    }

    /**
     * {@code {status, p50_us, p90_us, server_cpu_us_per_request}} of {@code requests} sends, shared by
     * {@code concurrency} threads each sending its part in sequence, after as many unmeasured ones; {@code serverCpu}
     * reads the answering process's CPU time in ns.
     */
    private static Map<String, Object> time(HttpRequest request, int requests, int concurrency,
            LongSupplier serverCpu) throws Exception {
        int status = 0;
        for (int i = 0; i < requests; i++) {
            status = HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode();
        }
        long[] nanos = new long[requests];
        ExecutorService clients = Executors.newFixedThreadPool(concurrency);
        try {
            long cpuBefore = serverCpu.getAsLong();
            List<Future<?>> parts = new ArrayList<>();
            for (int c = 0; c < concurrency; c++) {
                int first = c;
                parts.add(clients.submit(() -> {
                    for (int i = first; i < requests; i += concurrency) {
                        long start = System.nanoTime();
                        HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        nanos[i] = System.nanoTime() - start;
                    }
                    return null;
                }));
            }
            for (Future<?> part : parts) {
                part.get();
            }
            long cpu = serverCpu.getAsLong() - cpuBefore;
            Arrays.sort(nanos);
            return Map.of("status", status, "p50_us", nanos[requests / 2] / 1_000, "p90_us",
                    nanos[requests * 9 / 10] / 1_000, "server_cpu_us_per_request",
                    LoadHarness.round(cpu / 1_000.0 / requests));
        } finally {
            clients.shutdownNow();
        }
    }
}
