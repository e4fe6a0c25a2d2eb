package dev.gatehouse.bench;

import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * The gate's overhead under load, measured from a client: local-services and the gateway as processes
 * ({@link Stack}), one thread session (a1/t1, Project and wiki on), and the same operation sent through the gateway
 * ({@code tools/call} over 2026-07-28) and straight to the backend's HTTP API, in alternating batches of one run, at
 * concurrency 1, 16 and 64. Then {@code load.gated.mixed.c64}: mixed calls (wiki reads and writes with ASCII and
 * non-ASCII names, project and thread lists, a few denied calls) counting refusals of allowed calls. Every loop is
 * bounded in count and in time; the processes stop at the end, also on failure. Latencies are client-side wall time
 * per request (send to body received), on the same machine as both servers. Around each gated series the harness
 * reads {@code GET /admin/pipeline-timings} twice and reports that series' share of the gateway's own timers: the
 * transport steps, the PEP's steps ({@code facts}, {@code arguments}, {@code decision}, {@code quota},
 * {@code decision-log}, {@code enforce}, {@code handler}) and the session and settings lookups (count, share answered from the
 * replica's cache, mean, p50/p99 as bucket bounds). Each result also has the CPU time per call of every process
 * on the machine ({@link CpuTime}, taken around each batch, so the targets of one round are told apart; around the
 * whole series for the mixed and swap series, which have one target): the gateway's JVM and its PostgreSQL for a
 * gated series, local-services and this client for all, and the {@code ceiling_ops_s} those leave a gateway that
 * cost nothing. CPU time is not inflated by waiting for a core on a
 * shared machine. A gated series also has {@code host_exchanges_per_call}: that gateway's exchanges with the host
 * during the series (thread-shell reads and its shell watch's polls, from its {@code /prometheus}) per call, and
 * {@code engine_cpu}: per entry point, the embedded engine's evaluations per call and the request thread's CPU µs
 * per evaluation ({@link #engineCpu}).
 *
 * <p>Arguments (key=value): {@code local-jar}, {@code gateway-jar}, {@code bundle}, {@code work}, {@code out},
 * {@code requests} (per name, default 5000), {@code mixed} (default 10000), {@code warmup} (per operation and target,
 * default 2000), {@code warmup-jit-share} (warm-up rounds until the JIT took at most this share of each gateway's CPU
 * in the last one; default 1: one round) and {@code warmup-max-seconds} (default 180), {@code series-seconds} (time
 * bound of one operation × concurrency series, default 180), {@code label} (appended to the series names after a dot),
 * {@code gateway-options} (extra gateway JVM options, space-separated; default none: the gateway's defaults),
 * {@code operations} (default {@code project_work_list,wiki_read}), {@code concurrency} (default {@code 1,16,64})
 * and {@code only=mixed} (the mixed series alone, for diagnosing it). {@code only=fairness}: nine agents on the real
 * budgets instead, one of them abusive, on one gateway and on two replicas ({@link FairnessLoad}, its own arguments).
 *
 * <p>Before/after in one run: {@code gateway-b-jar=<another gateway jar>} (and {@code gateway-b-options}) starts a
 * second gateway in front of the same local-services; each round then sends the batch to all three targets in
 * rotating order, reported as {@code load.gated.*}, {@code load.direct.*} and {@code load.gated-b.*}, each gateway's
 * own timers read from it. {@code mixed=0} skips the mixed series.
 *
 * <p>{@code only=swap swap-bundle=<a second signed bundle>}: hot swap under load. The gateway watches a copy of
 * {@code bundle} (every 100 ms, rollback allowed so the two revisions can alternate); gated wiki_read runs at
 * concurrency 16, first steady ({@code load.gated.wiki_read.c16.steady}), then while the bundle file is replaced
 * by the other revision every {@code swap-every-ms} (default 1500) ({@code load.gated.wiki_read.c16.swapping});
 * the report counts the swaps the gateway activated ({@code /health} revision changes) and every failed call.
 */
public final class LoadHarness {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final int[] CONCURRENCY = {1, 16, 64};
    static final int ROUNDS = 10;
    static final String VERSION = "2026-07-28";

    enum Outcome { OK, REFUSED, ERROR }

    /** One request and how to judge its answer. */
    record Call(String kind, HttpRequest request, boolean gated, boolean allowed) {
    }

    /** Latencies and outcomes of one result name. */
    static final class Samples {
        final String name;
        long[] nanos = new long[0];
        int ok;
        int refused;
        int errors;
        long wallNanos;
        final Map<String, int[]> byKind = new TreeMap<>();
        final List<String> firstErrors = new ArrayList<>();

        Samples(String name) {
            this.name = name;
        }

        synchronized void add(long[] batch, int n, long wall) {
            long[] all = Arrays.copyOf(nanos, nanos.length + n);
            System.arraycopy(batch, 0, all, nanos.length, n);
            nanos = all;
            wallNanos += wall;
        }

        synchronized void outcome(Call call, Outcome outcome, String detail) {
            int[] kind = byKind.computeIfAbsent(call.kind(), k -> new int[3]);
            kind[outcome.ordinal()]++;
            switch (outcome) {
                case OK -> ok++;
                case REFUSED -> refused++;
                default -> errors++;
            }
            if (outcome != Outcome.OK && firstErrors.size() < 5) {
                firstErrors.add(call.kind() + ": " + detail);
            }
        }

        Map<String, Object> result() {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("name", name);
            result.put("p50_us", round(percentile(sorted, 0.50) / 1000.0));
            result.put("p99_us", round(percentile(sorted, 0.99) / 1000.0));
            result.put("ops_s", round(wallNanos == 0 ? 0 : sorted.length * 1e9 / wallNanos));
            result.put("errors", errors);
            result.put("refused", refused);
            result.put("requests", sorted.length);
            result.put("mean_us", round(Arrays.stream(sorted).average().orElse(0) / 1000.0));
            Map<String, Object> kinds = new LinkedHashMap<>();
            byKind.forEach((kind, counts) -> kinds.put(kind, Map.of("ok", counts[0], "refused", counts[1],
                    "errors", counts[2])));
            result.put("by_kind", kinds);
            result.put("first_errors", firstErrors);
            return result;
        }
    }

    private final Stack stack;
    private final String token;
    /** The second gateway's session token in an A/B run ({@code gateway-b-jar}), else null. */
    private final String tokenB;
    private final List<String> operationNames;
    private final int[] concurrency;
    private final HttpClient gatewayClient;
    private final HttpClient directClient;
    private final AtomicInteger ids = new AtomicInteger();
    /** Warm-up rounds until the gateways' JIT share of a round is at most this (0: one round); see {@link #warmUp}. */
    private double warmupJitShare;
    private long warmupMaxNanos;
    /** Appended to every series name ({@code label=fresh}: {@code .fresh}), so two runs' rows can share a report. */
    private String label = "";
    /** What the warm-up came to: rounds and the last round's JIT share per gateway. */
    private final Map<String, Object> warmedUp = new LinkedHashMap<>();

    private LoadHarness(Stack stack, String token, String tokenB, List<String> operationNames, int[] concurrency) {
        this.stack = stack;
        this.token = token;
        this.tokenB = tokenB;
        this.operationNames = operationNames;
        this.concurrency = concurrency;
        this.gatewayClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        this.directClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = HarnessArgs.parse(argv);
        if ("fairness".equals(args.get("only"))) {
            FairnessLoad.main(args);
            return;
        }
        int requests = Integer.parseInt(args.getOrDefault("requests", "5000"));
        int mixed = Integer.parseInt(args.getOrDefault("mixed", "10000"));
        int warmup = Integer.parseInt(args.getOrDefault("warmup", "2000"));
        long seriesNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args.getOrDefault("series-seconds", "180")));
        Path out = Path.of(args.get("out"));
        List<String> gatewayOptions = HarnessArgs.options(args, "gateway-options");
        boolean mixedOnly = "mixed".equals(args.get("only"));
        boolean swapOnly = "swap".equals(args.get("only"));
        Path bundle = Path.of(args.get("bundle"));
        Path[] revisions = null;
        if (swapOnly) {
            Path swapDir = Files.createDirectories(Path.of(args.get("work")).toAbsolutePath().resolveSibling(
                    Path.of(args.get("work")).getFileName() + "-swap"));
            revisions = new Path[] {Files.copy(bundle, swapDir.resolve("a.tar.gz"), REPLACE_EXISTING),
                Files.copy(Path.of(args.get("swap-bundle")), swapDir.resolve("b.tar.gz"), REPLACE_EXISTING)};
            bundle = Files.copy(revisions[0], swapDir.resolve("live.tar.gz"), REPLACE_EXISTING);
            gatewayOptions = new ArrayList<>(gatewayOptions);
            gatewayOptions.addAll(List.of("-Dgatehouse.policy.allow-rollback=true",
                    "-Dgatehouse.policy.bundle-watch-interval=100ms"));
        }
        List<String> gatewayOptionsB = HarnessArgs.options(args, "gateway-b-options");
        List<String> operationNames = List.of(args.getOrDefault("operations", "project_work_list,wiki_read")
                .split(","));
        int[] concurrency = args.containsKey("concurrency")
                ? Arrays.stream(args.get("concurrency").split(",")).mapToInt(Integer::parseInt).toArray()
                : CONCURRENCY;
        Map<String, Object> report = new LinkedHashMap<>();
        try (Stack stack = Stack.start(Path.of(args.get("work")), Path.of(args.get("local-jar")),
                Path.of(args.get("gateway-jar")), bundle, gatewayOptions)) {
            String token = session(stack, stack.baseUrl());
            String tokenB = null;
            if (args.containsKey("gateway-b-jar")) {
                stack.startB(Path.of(args.get("gateway-b-jar")), bundle, gatewayOptionsB);
                tokenB = session(stack, stack.baseUrlB());
            }
            LoadHarness harness = new LoadHarness(stack, token, tokenB, operationNames, concurrency);
            harness.label = args.containsKey("label") ? "." + args.get("label") : "";
            harness.warmupJitShare = Double.parseDouble(args.getOrDefault("warmup-jit-share", "1"));
            harness.warmupMaxNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args.getOrDefault("warmup-max-seconds",
                    "180")));
            report = swapOnly
                    ? harness.swap(bundle, revisions, requests, warmup, seriesNanos,
                            Long.parseLong(args.getOrDefault("swap-every-ms", "1500")))
                    : harness.run(mixedOnly ? 0 : requests, mixed, mixedOnly ? 0 : warmup, seriesNanos);
            report.put("memory", Map.of("gateway", Stack.memory(stack.gateway),
                    "local_services", Stack.memory(stack.services)));
            report.put("pdp_faults", pdpFaults(stack.workDir.resolve("decisions.jsonl")));
            Map<String, Object> config = new LinkedHashMap<>(Map.of("requests", requests, "mixed", mixed,
                    "warmup", warmup, "rounds", ROUNDS,
                    "series_seconds", TimeUnit.NANOSECONDS.toSeconds(seriesNanos), "gateway_heap", "-Xmx512m",
                    "gateway_options", String.join(" ", gatewayOptions),
                    "local_services_heap", "-Xmx256m", "client", "java.net.http.HttpClient, HTTP/1.1, one thread "
                            + "per concurrent caller, same machine"));
            if (tokenB != null) {
                config.put("gateway_b_jar", args.get("gateway-b-jar"));
                config.put("gateway_b_options", String.join(" ", gatewayOptionsB));
                report.put("memory_b", Stack.memory(stack.gatewayB));
                report.put("pdp_faults_b", pdpFaults(stack.workDir.resolve("decisions-b.jsonl")));
            }
            config.put("warmup_jit_share", harness.warmupJitShare);
            config.put("warmed_up", harness.warmedUp);
            report.put("config", config);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, JSON.writeValueAsString(report));
        System.out.println(">> load results: " + out);
    }

    /**
     * The warm-up, not counted: every target, every operation, {@code warmup} calls each at concurrency 16 and a
     * quarter as many at concurrency 1, in rounds until the JIT compiler threads took at most
     * {@code warmup-jit-share} of each gateway's CPU time in the last round, or {@code warmup-max-seconds} passed.
     * A gateway whose JIT is still compiling spends CPU on it (25–40 % of its CPU in the first minute under load on
     * two cores) and runs code C2 has not compiled yet, which a per-call figure would count as the gate's own cost;
     * JMH measures after its warm-up too.
     */
    private void warmUp(ExecutorService pool, Collection<Call[]> operations, int warmup, long seriesNanos)
            throws Exception {
        long until = System.nanoTime() + warmupMaxNanos;
        int rounds = 0;
        double[] share;
        do {
            CpuTime start = CpuTime.of(stack);
            for (Call[] targets : operations) {
                for (Call call : targets) {
                    // Both concurrencies the series use most: one caller alone takes paths (uncontended locks, an
                    // idle pool) the JIT compiles apart from those of many.
                    for (int[] part : new int[][] {{16, warmup}, {1, Math.max(1, warmup / 4)}}) {
                        Samples ignored = new Samples("warmup");
                        batch(pool, part[0], i -> call, part[1], ignored, System.nanoTime() + seriesNanos);
                        if (ignored.ok < part[1] * 9 / 10) {
                            throw new IllegalStateException("warm-up of " + call.kind() + " (" + target(call)
                                    + ") failed: " + ignored.result());
                        }
                    }
                }
            }
            CpuTime spent = CpuTime.of(stack).minus(start);
            share = new double[] {spent.jitShare(0), tokenB == null ? 0 : spent.jitShare(1)};
            rounds++;
            System.out.printf(">> warm-up round %d: JIT share of the gateway's CPU %.3f (gateway-b %.3f)%n", rounds,
                    share[0], share[1]);
        } while (Math.max(share[0], share[1]) > warmupJitShare && System.nanoTime() < until);
        warmedUp.put("rounds", rounds);
        warmedUp.put("last_jit_share", Math.round(share[0] * 1000) / 1000.0);
        warmedUp.put("last_jit_share_b", Math.round(share[1] * 1000) / 1000.0);
    }

    /** The load's thread session (a1/t1) and agent settings on the gateway at {@code base}; its token. */
    static String session(Stack stack, String base) throws IOException, InterruptedException {
        return session(stack, base, "a1", "t1", "pi-1");
    }

    /**
     * A thread session of agent {@code agent} on host thread {@code thread} (run by provider instance
     * {@code providerInstance}), and the agent's settings (browser, Project on ps-demo, wiki read and write), through
     * the admin API of the gateway at {@code base}; its token.
     */
    static String session(Stack stack, String base, String agent, String thread, String providerInstance)
            throws IOException, InterruptedException {
        JsonNode session = JSON.readTree(stack.admin(base, "POST", "/admin/sessions", JSON.writeValueAsString(Map.of(
                "environmentId", "local", "threadId", thread, "providerSessionId", "ps-" + thread,
                "providerInstanceId", providerInstance, "logicalAgentId", agent, "t3ProjectId", "demo",
                "provider", "codex")), 201));
        stack.admin(base, "PUT", "/admin/agents/" + agent, "{\"browserAccess\":true,\"project\":{\"enabled\":"
                + "true,\"projectServiceProjectId\":\"ps-demo\"},\"wiki\":{\"read\":true,\"write\":true}}", 200);
        return session.path("token").asText();
    }

    private Map<String, Object> run(int requests, int mixedCount, int warmup, long seriesNanos) throws Exception {
        // Per operation, its targets: through the gateway, straight to the backend, and (A/B) through gateway B.
        Map<String, Call[]> operations = new LinkedHashMap<>();
        Map<String, Call[]> all = new LinkedHashMap<>();
        all.put("project_work_list", new Call[] {
            gated("project_work_list", Map.of(), true),
            direct("project_work_list", "/project/v1/projects/ps-demo/agents/a1/work"),
            tokenB == null ? null : gatedB("project_work_list", Map.of())});
        all.put("wiki_read", new Call[] {
            gated("wiki_read", Map.of("path", "page.md"), true),
            direct("wiki_read", "/wiki/v1/pages?path=" + URLEncoder.encode("agents/a1/page.md",
                    StandardCharsets.UTF_8)),
            tokenB == null ? null : gatedB("wiki_read", Map.of("path", "page.md"))});
        for (String name : operationNames) {
            Call[] targets = all.get(name);
            if (targets == null) {
                throw new IllegalArgumentException("unknown operation " + name + "; known: " + all.keySet());
            }
            operations.put(name, Arrays.stream(targets).filter(java.util.Objects::nonNull).toArray(Call[]::new));
        }
        List<Map<String, Object>> results = new ArrayList<>();
        Map<String, Object> steps = new LinkedHashMap<>();
        Map<String, Object> gateSteps = new LinkedHashMap<>();
        Map<String, Object> lookups = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            if (warmup > 0) {
                warmUp(pool, operations.values(), warmup, seriesNanos);
            }
            for (int concurrency : requests == 0 ? new int[0] : this.concurrency) {
                for (Map.Entry<String, Call[]> operation : operations.entrySet()) {
                    Call[] targets = operation.getValue();
                    Samples[] samples = new Samples[targets.length];
                    for (int t = 0; t < targets.length; t++) {
                        samples[t] = new Samples("load." + target(targets[t]) + "." + operation.getKey() + ".c"
                                + concurrency + label);
                    }
                    JsonNode before = timings(stack.baseUrl());
                    JsonNode beforeB = tokenB == null ? null : timings(stack.baseUrlB());
                    double[] hostBefore = {hostExchanges(stack.baseUrl()),
                        tokenB == null ? 0 : hostExchanges(stack.baseUrlB())};
                    long deadline = System.nanoTime() + seriesNanos;
                    int per = requests / ROUNDS;
                    CpuTime[] cpu = new CpuTime[targets.length];
                    Arrays.fill(cpu, CpuTime.NONE);
                    for (int round = 0; round < ROUNDS; round++) {
                        int n = round == ROUNDS - 1 ? requests - per * (ROUNDS - 1) : per;
                        // Rotate which target goes first, so none always runs on a warmer machine.
                        for (int k = 0; k < targets.length; k++) {
                            int t = (round + k) % targets.length;
                            Call call = targets[t];
                            CpuTime start = CpuTime.of(stack);
                            batch(pool, concurrency, i -> call, n, samples[t], deadline);
                            cpu[t] = cpu[t].plus(CpuTime.of(stack).minus(start));
                        }
                    }
                    JsonNode after = timings(stack.baseUrl());
                    double[] hostAfter = {hostExchanges(stack.baseUrl()),
                        tokenB == null ? 0 : hostExchanges(stack.baseUrlB())};
                    steps.put(samples[0].name, stepDelta(before, after, "transport"));
                    gateSteps.put(samples[0].name, stepDelta(before, after, "gate"));
                    lookups.put(samples[0].name, lookupDelta(before, after));
                    JsonNode afterB = tokenB == null ? null : timings(stack.baseUrlB());
                    List<Map<String, Object>> engine = new ArrayList<>(List.of(stepDelta(before, after, "engine")));
                    if (tokenB != null) {
                        engine.add(stepDelta(beforeB, afterB, "engine"));
                        steps.put(samples[2].name, stepDelta(beforeB, afterB, "transport"));
                        gateSteps.put(samples[2].name, stepDelta(beforeB, afterB, "gate"));
                        lookups.put(samples[2].name, lookupDelta(beforeB, afterB));
                    }
                    for (int t = 0; t < samples.length; t++) {
                        Map<String, Object> result = samples[t].result();
                        Map<String, Object> cpuPerCall = cpu[t].perCall(samples[t].nanos.length,
                                gatewayOf(targets[t]));
                        result.putAll(cpuPerCall);
                        int gateway = gatewayOf(targets[t]);
                        if (gateway >= 0) {
                            result.put("engine_cpu", engineCpu(engine.get(gateway), samples[t].nanos.length));
                            result.put("host_exchanges_per_call", Math.round((hostAfter[gateway]
                                    - hostBefore[gateway]) * 1_000.0 / Math.max(1, samples[t].nanos.length))
                                    / 1_000.0);
                        }
                        results.add(result);
                        System.out.println(">> " + summary(samples[t]) + ", CPU µs/call " + cpuPerCall);
                    }
                }
            }
            if (mixedCount == 0) {
                return report(results, steps, gateSteps, lookups);
            }
            Call[] mixed = mixedCalls(mixedCount);
            Samples mixedSamples = new Samples("load.gated.mixed.c64" + label);
            JsonNode before = timings(stack.baseUrl());
            long deadline = System.nanoTime() + seriesNanos;
            int per = mixedCount / ROUNDS;
            CpuTime cpuStart = CpuTime.of(stack);
            for (int round = 0; round < ROUNDS; round++) {
                int offset = round * per;
                int n = round == ROUNDS - 1 ? mixedCount - offset : per;
                batch(pool, 64, i -> mixed[offset + i], n, mixedSamples, deadline);
            }
            Map<String, Object> cpuPerCall = CpuTime.of(stack).minus(cpuStart).perCall(mixedSamples.nanos.length, 0);
            JsonNode after = timings(stack.baseUrl());
            steps.put(mixedSamples.name, stepDelta(before, after, "transport"));
            gateSteps.put(mixedSamples.name, stepDelta(before, after, "gate"));
            lookups.put(mixedSamples.name, lookupDelta(before, after));
            Map<String, Object> mixedResult = mixedSamples.result();
            mixedResult.putAll(cpuPerCall);
            results.add(mixedResult);
            System.out.println(">> " + summary(mixedSamples) + ", CPU µs/call " + cpuPerCall);
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        return report(results, steps, gateSteps, lookups);
    }

    private static Map<String, Object> report(List<Map<String, Object>> results, Map<String, Object> steps,
            Map<String, Object> gateSteps, Map<String, Object> lookups) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("results", results);
        report.put("transport_steps", steps);
        report.put("gate_steps", gateSteps);
        report.put("store_lookups", lookups);
        return report;
    }

    /** Which gateway serves {@code call}: 0, 1 (gateway-b) or -1 (none: a direct call). */
    private int gatewayOf(Call call) {
        return !call.gated() ? -1 : target(call).equals("gated-b") ? 1 : 0;
    }

    /** {@code gated}, {@code direct} or {@code gated-b}: which server a call goes to, as its result names say. */
    private String target(Call call) {
        if (!call.gated()) {
            return "direct";
        }
        return call.request().uri().getPort() == stack.gatewayPortB ? "gated-b" : "gated";
    }

    /** The swap scenario (class comment): steady, then swapping, same call and concurrency. */
    private Map<String, Object> swap(Path live, Path[] revisions, int requests, int warmup, long seriesNanos,
            long everyMillis) throws Exception {
        Call call = gated("wiki_read", Map.of("path", "page.md"), true);
        List<Map<String, Object>> results = new ArrayList<>();
        Map<String, Object> swaps = new LinkedHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(17);
        try {
            batch(pool, 16, i -> call, warmup, new Samples("warmup"), System.nanoTime() + seriesNanos);
            Samples steady = new Samples("load.gated.wiki_read.c16.steady" + label);
            CpuTime cpuStart = CpuTime.of(stack);
            batch(pool, 16, i -> call, requests, steady, System.nanoTime() + seriesNanos);
            results.add(withCpu(steady, CpuTime.of(stack).minus(cpuStart)));
            System.out.println(">> " + summary(steady));
            java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
            List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
            seen.add(revision());
            Future<?> swapper = pool.submit(() -> {
                int next = 1;
                while (running.get()) {
                    try {
                        Path staged = live.resolveSibling("staged.tar.gz");
                        Files.copy(revisions[next], staged, REPLACE_EXISTING);
                        Files.move(staged, live, REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                        next = 1 - next;
                        Thread.sleep(everyMillis);
                        String now = revision();
                        if (!now.equals(seen.get(seen.size() - 1))) {
                            seen.add(now);
                        }
                    } catch (InterruptedException e) {
                        return null;
                    }
                }
                return null;
            });
            Samples swapping = new Samples("load.gated.wiki_read.c16.swapping" + label);
            cpuStart = CpuTime.of(stack);
            batch(pool, 16, i -> call, requests, swapping, System.nanoTime() + seriesNanos);
            CpuTime swappingCpu = CpuTime.of(stack).minus(cpuStart);
            running.set(false);
            swapper.get(30, TimeUnit.SECONDS);
            results.add(withCpu(swapping, swappingCpu));
            System.out.println(">> " + summary(swapping));
            swaps.put("activated", seen.size() - 1);
            swaps.put("every_ms", everyMillis);
            swaps.put("revisions", List.copyOf(seen));
            System.out.println(">> swaps activated during the swapping series: " + (seen.size() - 1));
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("results", results);
        report.put("swaps", swaps);
        return report;
    }

    /** {@code samples}' result with the CPU per call of the first gateway's series that used {@code cpu}. */
    private static Map<String, Object> withCpu(Samples samples, CpuTime cpu) {
        Map<String, Object> result = samples.result();
        result.putAll(cpu.perCall(samples.nanos.length, 0));
        return result;
    }

    /** The revision {@code /health} reports. */
    private String revision() throws IOException, InterruptedException {
        HttpResponse<String> health = gatewayClient.send(HttpRequest.newBuilder(URI.create(stack.baseUrl()
                + "/health")).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(health.body()).path("pdp").path("bundleRevision").asText("none");
    }

    private static String summary(Samples samples) {
        Map<String, Object> r = samples.result();
        return r.get("name") + ": p50 " + r.get("p50_us") + " µs, p99 " + r.get("p99_us") + " µs, "
                + r.get("ops_s") + " ops/s, " + r.get("requests") + " requests, errors " + r.get("errors")
                + ", refused " + r.get("refused") + (samples.firstErrors.isEmpty() ? "" : " " + samples.firstErrors);
    }

    /** Sends {@code count} calls from {@code concurrency} threads, until done or {@code deadline} (nanoTime). */
    private void batch(ExecutorService pool, int concurrency, IntFunction<Call> calls, int count, Samples into,
            long deadline) throws Exception {
        long[] latencies = new long[count];
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        long start = System.nanoTime();
        for (int w = 0; w < concurrency; w++) {
            workers.add(pool.submit(() -> {
                int k;
                while ((k = next.getAndIncrement()) < count && System.nanoTime() < deadline) {
                    Call call = calls.apply(k);
                    long t0 = System.nanoTime();
                    Outcome outcome;
                    String detail;
                    try {
                        HttpResponse<String> response = (call.gated() ? gatewayClient : directClient)
                                .send(call.request(), HttpResponse.BodyHandlers.ofString());
                        latencies[k] = System.nanoTime() - t0;
                        detail = response.statusCode() + " " + brief(response.body());
                        outcome = judge(call, response);
                    } catch (IOException e) {
                        latencies[k] = System.nanoTime() - t0;
                        outcome = Outcome.ERROR;
                        detail = e.toString();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    into.outcome(call, outcome, detail);
                    done.incrementAndGet();
                }
            }));
        }
        for (Future<?> worker : workers) {
            worker.get(Math.max(1, deadline - System.nanoTime()) + TimeUnit.SECONDS.toNanos(60),
                    TimeUnit.NANOSECONDS);
        }
        long wall = System.nanoTime() - start;
        int n = Math.min(done.get(), count);
        // Only completed slots: with a deadline, the first n slots are not necessarily the completed ones.
        long[] completed = Arrays.stream(latencies).filter(v -> v > 0).limit(n).toArray();
        into.add(completed, completed.length, wall);
        if (n < count) {
            System.out.println("!! " + into.name + ": time bound reached after " + n + " of " + count);
        }
    }

    private static Outcome judge(Call call, HttpResponse<String> response) throws IOException {
        if (!call.gated()) {
            return response.statusCode() == 200 ? Outcome.OK : Outcome.ERROR;
        }
        if (response.statusCode() != 200) {
            return Outcome.ERROR;
        }
        JsonNode body = JSON.readTree(response.body());
        JsonNode result = body.path("result");
        if (body.has("error") || result.isMissingNode()) {
            return Outcome.ERROR;
        }
        boolean isError = result.path("isError").asBoolean(false);
        String kind = result.path("structuredContent").path("kind").asText("");
        if (!call.allowed()) {
            return isError && kind.equals("denied") ? Outcome.OK : Outcome.ERROR;
        }
        if (!isError) {
            return Outcome.OK;
        }
        return kind.equals("denied") || kind.equals("unavailable") ? Outcome.REFUSED : Outcome.ERROR;
    }

    private Call gated(String tool, Map<String, Object> arguments, boolean allowed) {
        return gated(tool, tool, arguments, allowed);
    }

    /** The same allowed call through gateway B of an A/B run. */
    private Call gatedB(String tool, Map<String, Object> arguments) {
        return gated(stack.baseUrlB(), tokenB, tool, tool, arguments, true);
    }

    private Call gated(String kind, String tool, Map<String, Object> arguments, boolean allowed) {
        return gated(stack.baseUrl(), token, kind, tool, arguments, allowed);
    }

    private Call gated(String base, String token, String kind, String tool, Map<String, Object> arguments,
            boolean allowed) {
        return new Call(kind, toolCall(base, token, tool, arguments, ids.incrementAndGet()), true, allowed);
    }

    /** A 2026-07-28 {@code tools/call} of {@code tool} to the gateway at {@code base}, with JSON-RPC id {@code id}. */
    static HttpRequest toolCall(String base, String token, String tool, Map<String, Object> arguments, int id) {
        Map<String, Object> meta = Map.of("io.modelcontextprotocol/protocolVersion", VERSION,
                "io.modelcontextprotocol/clientInfo", Map.of("name", "gatehouse-bench", "version", "1"),
                "io.modelcontextprotocol/clientCapabilities", Map.of());
        Map<String, Object> body = Map.of("jsonrpc", "2.0", "id", id, "method", "tools/call",
                "params", Map.of("name", tool, "arguments", arguments, "_meta", meta));
        try {
            return HttpRequest.newBuilder(URI.create(base + "/mcp"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .header("Mcp-Method", "tools/call")
                    .header("Mcp-Name", tool)
                    .header("MCP-Protocol-Version", VERSION)
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Call direct(String kind, String pathAndQuery) {
        return new Call(kind, HttpRequest.newBuilder(URI.create(stack.localUrl() + pathAndQuery))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + stack.serviceCredential)
                .header("Gatehouse-Agent-Id", "a1")
                .header("Accept", "application/json").GET().build(), false, true);
    }

    /**
     * The mixed workload, generated from a fixed seed: 30 % wiki_read of pages written in setup (ASCII and
     * non-ASCII names), 10 % wiki_write of new ASCII pages, 15 % of new pages named in other scripts, 20 %
     * project_work_list, 20 % t3_thread_list, 5 % calls the policy denies (path escape, unknown tool, a name with a
     * symbol, a dot-dot segment).
     */
    private Call[] mixedCalls(int count) throws Exception {
        SplittableRandom random = new SplittableRandom(7);
        InputRing.Script[] scripts = InputRing.Script.values();
        List<String> pages = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            InputRing.Script script = scripts[i % scripts.length];
            String page = i < 10 ? "mixed/seed-" + i + ".md"
                    : script.word(random, 4 + random.nextInt(5)) + "/" + script.word(random, 3 + random.nextInt(6))
                            + "-" + i + ".md";
            Call write = gated("setup_write", "wiki_write", Map.of("path", page, "content", "seed " + i), true);
            HttpResponse<String> response = gatewayClient.send(write.request(), HttpResponse.BodyHandlers.ofString());
            if (judge(write, response) != Outcome.OK) {
                throw new IllegalStateException("setup write of " + page + " failed: " + response.body());
            }
            pages.add(page);
        }
        Call projects = gated("project_work_list", Map.of(), true);
        Call threads = gated("t3_thread_list", Map.of(), true);
        Call[] calls = new Call[count];
        for (int i = 0; i < count; i++) {
            int r = random.nextInt(100);
            InputRing.Script script = scripts[i % scripts.length];
            if (r < 30) {
                calls[i] = gated("wiki_read", Map.of("path", pages.get(random.nextInt(pages.size()))), true);
            } else if (r < 40) {
                calls[i] = gated("wiki_write.ascii", "wiki_write", Map.of("path", "mixed/w-" + i + ".md",
                        "content", "text " + i), true);
            } else if (r < 55) {
                calls[i] = gated("wiki_write." + script.name().toLowerCase(), "wiki_write", Map.of("path",
                        script.word(random, 4 + random.nextInt(5)) + "/" + script.word(random, 3 + random.nextInt(6))
                                + "-" + i + ".md", "content", "текст 文本 " + i), true);
            } else if (r < 75) {
                calls[i] = projects;
            } else if (r < 95) {
                calls[i] = threads;
            } else {
                calls[i] = switch (i % 4) {
                    case 0 -> gated("denied.path_escape", "wiki_read", Map.of("path", "../a2/secret.md"), false);
                    case 1 -> gated("denied.unknown_tool", "no_such_tool", Map.of(), false);
                    case 2 -> gated("denied.symbol_name", "wiki_write", Map.of("path", "notes/star-★-" + i + ".md",
                            "content", "x"), false);
                    default -> gated("denied.dot_dot", "wiki_read", Map.of("path", "notes/../../a2/secret.md"),
                            false);
                };
            }
        }
        return calls;
    }

    /**
     * The exchanges the gateway at {@code base} has had with the host so far (its
     * {@code gatehouse_facade_call_seconds_count{service="host"}}, every outcome): thread-shell reads, the shell
     * watch's polls and host tool calls.
     */
    static double hostExchanges(String base) throws IOException, InterruptedException {
        String scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/prometheus"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        double total = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith("gatehouse_facade_call_seconds_count{") && line.contains("service=\"host\"")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    private JsonNode timings(String base) throws IOException, InterruptedException {
        return JSON.readTree(stack.admin(base, "GET", "/admin/pipeline-timings", null, 200));
    }

    /**
     * Per step of one timer kind ({@code transport}: key {@code step/outcome}; {@code gate}: key {@code step};
     * {@code engine}: key the entry point, the mean being CPU µs per evaluation), the calls and mean µs between two
     * reads of {@code /admin/pipeline-timings}; for a timer with buckets (the engine's) also p50/p99 as the upper
     * bound of the bucket that holds them.
     */
    static Map<String, Object> stepDelta(JsonNode before, JsonNode after, String kind) {
        Map<String, JsonNode> start = new LinkedHashMap<>();
        for (JsonNode timer : before) {
            start.put(key(timer), timer);
        }
        Map<String, Object> delta = new LinkedHashMap<>();
        for (JsonNode timer : after) {
            if (!kind.equals(timer.path("timer").asText())) {
                continue;
            }
            JsonNode was = start.get(key(timer));
            double count = timer.path("count").asDouble() - (was == null ? 0 : was.path("count").asDouble());
            if (count > 0) {
                double total = timer.path("totalMicros").asDouble()
                        - (was == null ? 0 : was.path("totalMicros").asDouble());
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("count", (long) count);
                entry.put("mean_us", round(total / count));
                if (timer.path("buckets").size() > 0) {
                    TreeMap<Double, Double> buckets = new TreeMap<>();
                    addBuckets(buckets, timer, was);
                    entry.put("p50_us_at_most", bucketBound(buckets, count, 0.50));
                    entry.put("p99_us_at_most", bucketBound(buckets, count, 0.99));
                }
                delta.put(kind.equals("transport") ? timer.path("step").asText() + "/" + timer.path("outcome").asText()
                        : timer.path("step").asText(), entry);
            }
        }
        return delta;
    }

    /**
     * The engine's CPU time of a series per entry point ({@code engine} of {@link #stepDelta}): evaluations per call
     * (1 when every decision is fresh, near 0 when the memo answers) and the request thread's CPU µs per evaluation,
     * the figure to hold against JMH's on the same inputs ({@code LoggedInputBenchmark}); its p50 and p99 (upper
     * bounds of their buckets, absent from a gateway without the engine timer's buckets).
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> engineCpu(Map<String, Object> engine, int calls) {
        Map<String, Object> perCall = new LinkedHashMap<>();
        engine.forEach((entrypoint, value) -> {
            Map<String, Object> step = (Map<String, Object>) value;
            long count = (Long) step.get("count");
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("evaluations_per_call", Math.round(count * 1000.0 / Math.max(1, calls)) / 1000.0);
            entry.put("cpu_us_per_evaluation", step.get("mean_us"));
            if (step.containsKey("p50_us_at_most")) {
                entry.put("cpu_us_p50_at_most", step.get("p50_us_at_most"));
                entry.put("cpu_us_p99_at_most", step.get("p99_us_at_most"));
            }
            perCall.put(entrypoint, entry);
        });
        return perCall;
    }

    /**
     * Per looked-up table ({@code lookup.agent_session}, {@code lookup.agent_settings}, …), cache hits and reads of
     * PostgreSQL together: the lookups between two reads, the share answered from the cache, the mean, and p50/p99 as
     * the upper bound of the gateway's bucket that holds them ({@code ≤} that many µs).
     */
    static Map<String, Object> lookupDelta(JsonNode before, JsonNode after) {
        Map<String, JsonNode> start = new LinkedHashMap<>();
        for (JsonNode timer : before) {
            start.put(key(timer), timer);
        }
        Map<String, double[]> counts = new TreeMap<>(); // step -> [count, total µs, cached]
        Map<String, TreeMap<Double, Double>> buckets = new TreeMap<>();
        for (JsonNode timer : after) {
            if (!"store".equals(timer.path("timer").asText())) {
                continue;
            }
            JsonNode was = start.get(key(timer));
            String step = timer.path("step").asText();
            double count = timer.path("count").asDouble() - (was == null ? 0 : was.path("count").asDouble());
            double total = timer.path("totalMicros").asDouble() - (was == null ? 0 : was.path("totalMicros").asDouble());
            double[] sum = counts.computeIfAbsent(step, s -> new double[3]);
            sum[0] += count;
            sum[1] += total;
            if ("cache".equals(timer.path("outcome").asText())) {
                sum[2] += count;
            }
            addBuckets(buckets.computeIfAbsent(step, s -> new TreeMap<>()), timer, was);
        }
        Map<String, Object> delta = new LinkedHashMap<>();
        counts.forEach((step, sum) -> {
            if (sum[0] > 0) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("count", (long) sum[0]);
                entry.put("cached_share", round(sum[2] / sum[0] * 1000) / 1000.0);
                entry.put("mean_us", round(sum[1] / sum[0]));
                entry.put("p50_us_at_most", bucketBound(buckets.get(step), sum[0], 0.50));
                entry.put("p99_us_at_most", bucketBound(buckets.get(step), sum[0], 0.99));
                delta.put(step, entry);
            }
        });
        return delta;
    }

    /** Adds to {@code merged} each bucket's count gained from {@code was} (absent: from start) to {@code timer}. */
    private static void addBuckets(TreeMap<Double, Double> merged, JsonNode timer, JsonNode was) {
        JsonNode old = was == null ? null : was.path("buckets");
        for (int i = 0; i < timer.path("buckets").size(); i++) {
            JsonNode bucket = timer.path("buckets").get(i);
            double gained = bucket.get(1).asDouble() - (old == null || old.size() <= i ? 0 : old.get(i).get(1).asDouble());
            merged.merge(bucket.get(0).asDouble(), gained, Double::sum);
        }
    }

    /** The smallest bucket bound (cumulative counts) holding the fraction {@code p} of {@code count}; -1 if beyond. */
    private static double bucketBound(TreeMap<Double, Double> cumulative, double count, double p) {
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= Math.ceil(p * count)) {
                return bucket.getKey();
            }
        }
        return -1;
    }

    private static String key(JsonNode timer) {
        return timer.path("timer").asText() + "/" + timer.path("step").asText() + "/" + timer.path("outcome").asText();
    }

    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    /** A tool error as {@code kind [reason codes]}, anything else its first 160 characters. */
    private static String brief(String text) {
        try {
            JsonNode content = JSON.readTree(text).path("result").path("structuredContent");
            if (content.has("kind")) {
                List<String> codes = new ArrayList<>();
                content.path("reasons").forEach(reason -> codes.add(reason.path("code").asText()));
                return content.path("kind").asText() + " " + codes;
            }
        } catch (IOException notJson) {
            // fall through
        }
        return text.length() > 160 ? text.substring(0, 160) + "…" : text;
    }

    /** Counts of the decision log's {@code fault.code} values (e.g. {@code busy}: no PDP instance free in time). */
    static Map<String, Integer> pdpFaults(Path decisionLog) {
        Map<String, Integer> faults = new TreeMap<>();
        try (var lines = Files.lines(decisionLog)) {
            lines.forEach(line -> {
                try {
                    JsonNode fault = JSON.readTree(line).path("fault");
                    if (fault.has("code")) {
                        faults.merge(fault.path("code").asText(), 1, Integer::sum);
                    }
                } catch (IOException unreadable) {
                    faults.merge("unreadable_record", 1, Integer::sum);
                }
            });
        } catch (IOException e) {
            faults.put("log_unreadable", -1);
        }
        return faults;
    }
}
