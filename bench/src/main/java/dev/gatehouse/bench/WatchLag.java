package dev.gatehouse.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long a change on the host takes to reach the gateway's watch of thread shells (docs/domain.md §1): local-services
 * and the gateway as processes ({@link Stack}), one thread session (a1/t1, Project on). The harness changes thread t2's
 * modes through local-services' admin route {@code changes} times, one every {@code interval-ms}, first with the
 * gateway idle, then while {@code load-concurrency} clients send gated {@code project_work_list} calls. Each change's
 * delay, from the host's {@code at} (stamped before the change is saved) to the watch applying it, comes from the
 * gateway's {@code gatehouse_host_watch_lag_seconds} histogram, scraped before and after each phase: p50 and p99 are
 * the upper bounds of the buckets they fall in, the mean is exact. Both clocks are this machine's. The round trip of
 * each change (the admin route answers once local-services has saved it, fsync included) is timed here: until then
 * no reader can see the change. Also per phase: the
 * gated calls served, their thread shells answered from the watch and read from the host
 * ({@code gatehouse_pip_thread_shells_total}), and the gateway's exchanges with the host per gated call
 * ({@code gatehouse_facade_call_seconds_count{service="host"}}: the watch's polls included).
 *
 * <p>Arguments (key=value): {@code local-jar}, {@code gateway-jar}, {@code bundle}, {@code work}, {@code out},
 * {@code changes} (per phase, default 300), {@code interval-ms} (default 20), {@code load-concurrency} (default 16),
 * {@code warmup} (gated calls before the first phase, default 2000), {@code gateway-options}.
 */
public final class WatchLag {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String LAG = "gatehouse_host_watch_lag_seconds";

    private final Stack stack;
    private final String token;
    private final AtomicLong ids = new AtomicLong();

    private WatchLag(Stack stack, String token) {
        this.stack = stack;
        this.token = token;
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = HarnessArgs.parse(argv);
        int changes = Integer.parseInt(args.getOrDefault("changes", "300"));
        long interval = Long.parseLong(args.getOrDefault("interval-ms", "20"));
        int concurrency = Integer.parseInt(args.getOrDefault("load-concurrency", "16"));
        int warmup = Integer.parseInt(args.getOrDefault("warmup", "2000"));
        List<String> options = HarnessArgs.options(args, "gateway-options");
        Map<String, Object> report = new LinkedHashMap<>();
        try (Stack stack = Stack.start(args)) {
            WatchLag harness = new WatchLag(stack, LoadHarness.session(stack, stack.baseUrl()));
            harness.load(16, warmup);
            report.put("idle", harness.phase(changes, interval, 0));
            report.put("load_c" + concurrency, harness.phase(changes, interval, concurrency));
            report.put("config", Map.of("changes", changes, "interval_ms", interval, "load_concurrency",
                    concurrency, "warmup", warmup, "gateway_options", String.join(" ", options)));
        }
        Path out = Path.of(args.get("out"));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, LoadHarness.JSON.writeValueAsString(report));
        System.out.println(LoadHarness.JSON.writeValueAsString(report));
    }

    /** {@code changes} changes of t2's modes, with {@code concurrency} clients of gated calls running meanwhile. */
    private Map<String, Object> phase(int changes, long intervalMillis, int concurrency) throws Exception {
        Map<String, Double> before = scrape();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong served = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, concurrency));
        List<Future<?>> clients = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            clients.add(pool.submit(() -> {
                while (running.get()) {
                    if (call()) {
                        served.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        long[] commits = new long[changes];
        try {
            for (int i = 0; i < changes; i++) {
                String modes = i % 2 == 0 ? "{\"runtimeMode\":\"auto\",\"interactionMode\":\"default\"}"
                        : "{\"runtimeMode\":\"approval-required\",\"interactionMode\":\"plan\"}";
                long sent = System.nanoTime();
                HttpResponse<String> changed = HTTP.send(HttpRequest.newBuilder(URI.create(stack.localUrl()
                        + "/host/v1/admin/threads/t2")).method("PATCH", HttpRequest.BodyPublishers.ofString(modes))
                        .header("Authorization", "Bearer " + stack.serviceCredential)
                        .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
                commits[i] = System.nanoTime() - sent;
                if (changed.statusCode() != 200) {
                    throw new IllegalStateException("change " + i + ": " + changed.statusCode() + " "
                            + changed.body());
                }
                Thread.sleep(intervalMillis);
            }
        } finally {
            running.set(false);
            for (Future<?> client : clients) {
                client.get();
            }
            pool.shutdown();
        }
        // The last change may still be on its way to the watch.
        Map<String, Double> after = scrape();
        for (int wait = 0; wait < 100 && after.getOrDefault(LAG + "_count", 0.0)
                - before.getOrDefault(LAG + "_count", 0.0) < changes; wait++) {
            Thread.sleep(10);
            after = scrape();
        }
        Map<String, Object> summary = summary(before, after, served.get());
        summary.put("change_round_trip_mean_us", LoadHarness.round(Arrays.stream(commits).average().orElse(0)
                / 1_000.0));
        Arrays.sort(commits);
        summary.put("change_round_trip_p50_us", LoadHarness.round(commits[changes / 2] / 1_000.0));
        summary.put("change_round_trip_p99_us", LoadHarness.round(commits[(int) Math.min(changes - 1,
                Math.ceil(changes * 0.99) - 1)] / 1_000.0));
        return summary;
    }

    private void load(int concurrency, int calls) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        AtomicLong left = new AtomicLong(calls);
        List<Future<?>> clients = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            clients.add(pool.submit(() -> {
                while (left.decrementAndGet() >= 0) {
                    call();
                }
                return null;
            }));
        }
        for (Future<?> client : clients) {
            client.get();
        }
        pool.shutdown();
    }

    /** One gated project_work_list; true when it was served. */
    private boolean call() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + ids.incrementAndGet() + ",\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"project_work_list\",\"arguments\":{},\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"" + LoadHarness.VERSION + "\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"gatehouse-bench\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/mcp"))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Method", "tools/call").header("Mcp-Name", "project_work_list")
                .header("MCP-Protocol-Version", LoadHarness.VERSION)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 && !response.body().contains("\"isError\":true");
    }

    private Map<String, Object> summary(Map<String, Double> before, Map<String, Double> after, long served) {
        Map<String, Object> out = new LinkedHashMap<>();
        double count = delta(before, after, LAG + "_count");
        out.put("changes_seen", (long) count);
        out.put("lag_mean_us", LoadHarness.round(delta(before, after, LAG + "_sum") / count * 1e6));
        TreeMap<Double, Double> buckets = new TreeMap<>();
        after.forEach((key, value) -> {
            if (key.startsWith(LAG + "_bucket{le=")) {
                String bound = key.substring(key.indexOf('"') + 1, key.lastIndexOf('"'));
                if (!bound.equals("+Inf")) {
                    buckets.put(Double.parseDouble(bound), value - before.getOrDefault(key, 0.0));
                }
            }
        });
        out.put("lag_p50_us_at_most", percentile(buckets, count, 0.50));
        out.put("lag_p99_us_at_most", percentile(buckets, count, 0.99));
        out.put("gated_calls_served", served);
        double watch = delta(before, after, "gatehouse_pip_thread_shells_total{source=\"watch\"}");
        double host = delta(before, after, "gatehouse_pip_thread_shells_total{source=\"host\"}");
        out.put("shells_from_watch", (long) watch);
        out.put("shells_read_from_host", (long) host);
        double exchanges = after.entrySet().stream().filter(e -> e.getKey().startsWith(
                "gatehouse_facade_call_seconds_count{") && e.getKey().contains("service=\"host\""))
                .mapToDouble(e -> e.getValue() - before.getOrDefault(e.getKey(), 0.0)).sum();
        out.put("host_exchanges", (long) exchanges);
        if (served > 0) {
            out.put("host_exchanges_per_1000_gated_calls", LoadHarness.round(exchanges * 1_000 / served));
        }
        return out;
    }

    /** The upper bound, in µs, of the bucket holding quantile {@code q} of {@code count} samples. */
    private static Object percentile(TreeMap<Double, Double> cumulative, double count, double q) {
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= Math.ceil(q * count)) {
                return LoadHarness.round(bucket.getKey() * 1e6);
            }
        }
        return "above the largest bucket";
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String key) {
        return after.getOrDefault(key, 0.0) - before.getOrDefault(key, 0.0);
    }

    /** The gateway's Prometheus samples, by name and labels as written. */
    private Map<String, Double> scrape() throws Exception {
        String body = HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/prometheus"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : body.split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                int space = line.lastIndexOf(' ');
                samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return samples;
    }
}
