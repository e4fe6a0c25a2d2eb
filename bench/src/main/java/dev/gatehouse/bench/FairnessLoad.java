package dev.gatehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import java.io.IOException;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fair under load (issue 25; README "Quotas: who may do how much"), on the real budgets of the bundle it is given:
 * nine agents, each on its own host thread (launched at local-services) with its own session.
 * <ul>
 * <li>eight well-behaved agents, one call at a time each, paced within their budgets: a call every
 *     {@value #PACE_MS} ms (wiki_read, project_work_list and t3_thread_list; every eighth a wiki_write of a short
 *     page), so about 6 read-class calls and 0.8 wiki_write a second each, well under either budget;</li>
 * <li>one abusive agent at concurrency {@value #ABUSER_CONCURRENCY}, resending as soon as it is answered (it ignores
 *     {@code retryAfterMs}): alternately wiki_write of the longest path the policy admits (32 segments of 251 bytes;
 *     the gate admits and charges it, then the wiki storage refuses to store it, 422 {@code path_too_long}) and
 *     project_work_submit with 64 members of business data to its own run (the first commits, the rest are stale,
 *     409); every call's arguments differ, so no decision memo answers them.</li>
 * </ul>
 * Two series: {@code one} (one gateway), then {@code two} (a second replica on the first one's PostgreSQL,
 * {@link Stack#startReplica}; every well-behaved agent alternates its calls between the two, half the abuser's
 * threads call each). In a series the well-behaved agents call throughout while phases of {@code phase-seconds}
 * alternate for {@code rounds} rounds: {@code alone} (no abuser) and {@code abused} (the abuser too), which of the
 * two comes first alternating as well. One second after each phase (the abuser's last calls end then) counts for
 * neither, and so does a warm-up before the first. A call counts for the phase it was sent in.
 *
 * <p>Per phase and per condition (its phases pooled): the well-behaved calls' p50/p99, ok, refused (rate_limited,
 * denied or unavailable) and errors; the abuser's calls served (per bucket class, and what the service answered),
 * rate_limited and errors; per class its budget in the phase, burst + rate × window (from the phase's start to the
 * abuser's last answer in it), plus on two replicas what each may take before it syncs (0.1 of the burst, the
 * gateway's default {@code sync-tokens}), and what two separate budgets would be ({@code doubled}); and the CPU the
 * processes used per second of the phase ({@link CpuTime}) and the gateways' exchanges with the host per call
 * ({@code host_exchanges_per_call}: thread-shell reads on the call path and the shell watch's polls). Per series
 * also the well-behaved p99 per tool, and what an abuser's call cost each process ({@code abuser_cost}: the abused
 * phases' CPU less their well-behaved calls at the alone phases' CPU per call, per abuser call). The budgets are
 * those of the bundle's own decisions on the abuser's calls (the {@code quota} obligation). The bar: abused p99 at
 * most 2× alone p99, no well-behaved call refused, no error, the abuser rate_limited and its served calls within
 * one budget in every phase.
 *
 * <p>Arguments (key=value): {@code local-jar}, {@code gateway-jar}, {@code bundle} (with the real budgets:
 * target/bundle/bundle.tar.gz), {@code work}, {@code out}, {@code rounds} (default 4), {@code phase-seconds} (default
 * 20), {@code warmup-seconds} (default 20: half with the abuser, half without; the second replica starts cold),
 * {@code gateway-options} (extra JVM options of both gateways).
 */
final class FairnessLoad {

    static final int WELL_BEHAVED = 8;
    static final long PACE_MS = 150;
    static final int ABUSER_CONCURRENCY = 32;
    /** The gateway's default {@code gatehouse.quotas.sync-tokens}: what a replica may take before it syncs. */
    private static final double SYNC_TOKENS = 0.1;
    private static final long GAP_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final String WIKI_SHAPE = "wiki_write.path_longest_ascii";
    private static final String SUBMIT_SHAPE = "project_work_submit.business_64";
    private static final HttpClient ADMIN = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** How an answer counts: served (the tool's result, or the service's refusal), rate_limited, refused, error. */
    enum Outcome { OK, SERVICE_REFUSED, RATE_LIMITED, REFUSED, ERROR }

    /** Latencies in ns, appended from many threads. */
    static final class Latencies {
        private long[] values = new long[1024];
        private int size;

        synchronized void add(long nanos) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = nanos;
        }

        synchronized long[] sorted() {
            long[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            return sorted;
        }
    }

    /** What one phase measured: calls are recorded into the phase they were sent in. */
    static final class Phase {
        final String condition;
        final int round;
        final Latencies wellBehaved = new Latencies();
        final Map<String, Latencies> wellBehavedByTool = new TreeMap<>();
        final Latencies abuser = new Latencies();
        final int[] wellBehavedOutcomes = new int[Outcome.values().length];
        final int[] abuserOutcomes = new int[Outcome.values().length];
        /** Per bucket class: {ok, service refused}. */
        final Map<String, int[]> served = new TreeMap<>();
        final List<String> firstErrors = new ArrayList<>();
        long start;
        long end;
        long lastAbuserAnswer;
        CpuTime cpu = CpuTime.NONE;
        /** The gateways' exchanges with the host during the phase (thread-shell reads and watch polls). */
        double hostExchanges;

        Phase(String condition, int round) {
            this.condition = condition;
            this.round = round;
        }

        synchronized void wellBehaved(String tool, long nanos, Outcome outcome, String detail) {
            wellBehaved.add(nanos);
            wellBehavedByTool.computeIfAbsent(tool, t -> new Latencies()).add(nanos);
            wellBehavedOutcomes[outcome.ordinal()]++;
            if (outcome != Outcome.OK) {
                error("well-behaved: " + detail);
            }
        }

        synchronized void abuser(long nanos, String bucketClass, Outcome outcome, String detail) {
            abuser.add(nanos);
            abuserOutcomes[outcome.ordinal()]++;
            lastAbuserAnswer = Math.max(lastAbuserAnswer, System.nanoTime());
            if (outcome == Outcome.OK || outcome == Outcome.SERVICE_REFUSED) {
                served.computeIfAbsent(bucketClass, c -> new int[2])[outcome == Outcome.OK ? 0 : 1]++;
            } else if (outcome != Outcome.RATE_LIMITED) {
                error("abuser: " + detail);
            }
        }

        private void error(String detail) {
            if (firstErrors.size() < 5) {
                firstErrors.add(detail);
            }
        }
    }

    /** A well-behaved or abusive agent: its id and session token (minted on the first gateway, valid on both). */
    record Agent(String id, String token) {
    }

    private final Stack stack;
    private final Map<String, Quota> quotaByTool;
    private final int rounds;
    private final long phaseNanos;
    private final long warmupNanos;
    private final AtomicInteger ids = new AtomicInteger();
    private volatile Phase current;
    private volatile boolean running;
    private volatile boolean abusing;

    private FairnessLoad(Stack stack, Map<String, Quota> quotaByTool, int rounds, long phaseNanos, long warmupNanos) {
        this.stack = stack;
        this.quotaByTool = quotaByTool;
        this.rounds = rounds;
        this.phaseNanos = phaseNanos;
        this.warmupNanos = warmupNanos;
    }

    static void main(Map<String, String> args) throws Exception {
        Path bundle = Path.of(args.get("bundle"));
        Path out = Path.of(args.get("out"));
        int rounds = Integer.parseInt(args.getOrDefault("rounds", "4"));
        long phaseNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args.getOrDefault("phase-seconds", "20")));
        long warmupNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(args.getOrDefault("warmup-seconds", "20")));
        List<String> gatewayOptions = HarnessArgs.options(args, "gateway-options");
        // Fixture reads the revision's schemas from gatehouse.bundle: the one the gateways serve here.
        System.setProperty("gatehouse.bundle", bundle.toString());
        Map<String, Quota> quotaByTool = budgets(bundle);
        Map<String, Object> report = new LinkedHashMap<>();
        try (Stack stack = Stack.start(Path.of(args.get("work")), Path.of(args.get("local-jar")),
                Path.of(args.get("gateway-jar")), bundle, gatewayOptions)) {
            FairnessLoad load = new FairnessLoad(stack, quotaByTool, rounds, phaseNanos, warmupNanos);
            List<Agent> wellBehaved = new ArrayList<>();
            for (int i = 1; i <= WELL_BEHAVED; i++) {
                wellBehaved.add(load.agent("fair-" + i));
            }
            Map<String, Object> series = new LinkedHashMap<>();
            List<Map<String, Object>> results = new ArrayList<>();
            series.put("one", load.series("one", List.of(stack.baseUrl()), wellBehaved, load.agent("abuser-one"),
                    results));
            stack.startReplica(Path.of(args.get("gateway-jar")), bundle, gatewayOptions);
            series.put("two", load.series("two", List.of(stack.baseUrl(), stack.baseUrlB()), wellBehaved,
                    load.agent("abuser-two"), results));
            report.put("results", results);
            report.put("series", series);
            report.put("pdp_faults", LoadHarness.pdpFaults(stack.workDir.resolve("decisions.jsonl")));
            report.put("pdp_faults_b", LoadHarness.pdpFaults(stack.workDir.resolve("decisions-b.jsonl")));
            Map<String, Object> budgets = new LinkedHashMap<>();
            quotaByTool.forEach((tool, quota) -> {
                Map<String, Object> budget = new LinkedHashMap<>();
                budget.put("class", quota.bucketClass());
                budget.put("rate_per_minute", quota.ratePerMinute());
                budget.put("burst", quota.burst());
                budgets.put(tool, budget);
            });
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("well_behaved", WELL_BEHAVED);
            config.put("pace_ms", PACE_MS);
            config.put("abuser_concurrency", ABUSER_CONCURRENCY);
            config.put("rounds", rounds);
            config.put("phase_seconds", TimeUnit.NANOSECONDS.toSeconds(phaseNanos));
            config.put("warmup_seconds", TimeUnit.NANOSECONDS.toSeconds(warmupNanos));
            config.put("abuser_budgets", budgets);
            config.put("gateway_options", String.join(" ", gatewayOptions));
            config.put("bundle", bundle.toString());
            report.put("config", config);
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, LoadHarness.JSON.writeValueAsString(report));
        System.out.println(">> fairness results: " + out);
    }

    /**
     * The quota the bundle's own decision puts on each of the abuser's calls (for a thread caller with every setting
     * on); fails unless both are allowed with one.
     */
    private static Map<String, Quota> budgets(Path bundle) {
        EmbeddedPdp pdp = Fixture.pdp(bundle, 1);
        try {
            Map<String, Quota> quotas = new LinkedHashMap<>();
            for (String shape : List.of(WIKI_SHAPE, SUBMIT_SHAPE)) {
                DecisionInput input = ArgumentSizeBenchmark.inputs(shape).get(0);
                PolicyOutcome<Decision> outcome = pdp.decide(input);
                if (!(outcome instanceof PolicyOutcome.Decided<Decision> decided) || !decided.value().allow()
                        || decided.value().obligations().quota().isEmpty()) {
                    throw new IllegalStateException(shape + " is not allowed with a quota: " + outcome);
                }
                quotas.put(shape.substring(0, shape.indexOf('.')), decided.value().obligations().quota().get());
            }
            return quotas;
        } finally {
            pdp.close();
        }
    }

    /**
     * A new agent: its own host thread (full-access/default, live run), a session and settings through the first
     * gateway, and a Project run assigned to it in ps-demo; one page written in its wiki subtree.
     */
    private Agent agent(String id) throws Exception {
        JsonNode thread = LoadHarness.JSON.readTree(created("/host/v1/threads", id, Map.of("projectId", "demo",
                "prompt", "bench " + id, "runtimeMode", "full-access", "interactionMode", "default")));
        String threadId = thread.path("threadId").asText();
        created("/project/v1/admin/assignments", id, Map.of("clientId", "bench", "agentId", id, "agentName", id,
                "projectId", "ps-demo", "projectName", "Demo", "runId", run(id), "title", "bench work"));
        Agent agent = new Agent(id, LoadHarness.session(stack, stack.baseUrl(), id, threadId, "pi-local"));
        HttpResponse<String> seed = ADMIN.send(LoadHarness.toolCall(stack.baseUrl(), agent.token(), "wiki_write",
                Map.of("path", "notes/seed.md", "content", "seed of " + id), ids.incrementAndGet()),
                HttpResponse.BodyHandlers.ofString());
        if (classify(seed) != Outcome.OK) {
            throw new IllegalStateException("seed write of " + id + " failed: " + seed.body());
        }
        return agent;
    }

    private static String run(String agent) {
        return "run-" + agent;
    }

    /** POSTs {@code body} to local-services as agent {@code agent}; fails unless it answers 201 Created. */
    private String created(String path, String agent, Map<String, Object> body)
            throws IOException, InterruptedException {
        HttpResponse<String> response = ADMIN.send(HttpRequest.newBuilder(URI.create(stack.localUrl() + path))
                .POST(HttpRequest.BodyPublishers.ofString(LoadHarness.JSON.writeValueAsString(body)))
                .header("Authorization", "Bearer " + stack.serviceCredential)
                .header("Gatehouse-Agent-Id", agent)
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IllegalStateException("POST " + path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** One series (class comment) against {@code bases}; adds its condition rows to {@code results}. */
    private Map<String, Object> series(String name, List<String> bases, List<Agent> wellBehaved, Agent abuser,
            List<Map<String, Object>> results) throws Exception {
        String loadStart = loadAverage();
        ExecutorService pool = Executors.newFixedThreadPool(WELL_BEHAVED + ABUSER_CONCURRENCY);
        List<Phase> phases = new ArrayList<>();
        try {
            running = true;
            List<Future<?>> agents = new ArrayList<>();
            for (int i = 0; i < wellBehaved.size(); i++) {
                int index = i;
                agents.add(pool.submit(() -> paced(wellBehaved.get(index), index, bases)));
            }
            HttpClient abuserClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            // Warm-up, not counted: the abuser's calls, then the well-behaved alone.
            phase(pool, new Phase("warmup", -1), true, warmupNanos / 2, abuser, bases, abuserClient);
            phase(pool, new Phase("warmup", -1), false, warmupNanos / 2, abuser, bases, abuserClient);
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < 2; k++) {
                    boolean abused = (round + k) % 2 == 1;
                    Phase phase = new Phase(abused ? "abused" : "alone", round);
                    phase(pool, phase, abused, phaseNanos, abuser, bases, abuserClient);
                    phases.add(phase);
                    System.out.println(">> fairness." + name + " round " + round + " " + phase.condition + ": "
                            + LoadHarness.JSON.writer().without(SerializationFeature.INDENT_OUTPUT)
                                    .writeValueAsString(report(phase, bases.size())));
                }
            }
            running = false;
            for (Future<?> agent : agents) {
                agent.get(60, TimeUnit.SECONDS);
            }
        } finally {
            running = false;
            abusing = false;
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        Map<String, Object> series = new LinkedHashMap<>();
        series.put("replicas", bases.size());
        series.put("load_average_start", loadStart);
        series.put("load_average_end", loadAverage());
        List<Map<String, Object>> phaseReports = new ArrayList<>();
        phases.forEach(phase -> phaseReports.add(report(phase, bases.size())));
        series.put("phases", phaseReports);
        series.put("abuser_cost", abuserCost(phases));
        Map<String, Object> alone = wellBehavedRow("load.fairness." + name + ".well_behaved.alone", phases, "alone");
        Map<String, Object> abused = wellBehavedRow("load.fairness." + name + ".well_behaved.abused", phases,
                "abused");
        double ratio = (double) abused.get("p99_us") / Math.max(1e-9, (double) alone.get("p99_us"));
        abused.put("p99_ratio", Math.round(ratio * 100) / 100.0);
        Map<String, Object> abuserRow = abuserRow("load.fairness." + name + ".abuser", phases, bases.size());
        results.addAll(List.of(alone, abused, abuserRow));
        Map<String, Object> bar = new LinkedHashMap<>();
        bar.put("p99_ratio", abused.get("p99_ratio"));
        bar.put("p99_within_2x", ratio <= 2.0);
        bar.put("well_behaved_refused", (int) alone.get("refused") + (int) abused.get("refused"));
        bar.put("errors", (int) alone.get("errors") + (int) abused.get("errors") + (int) abuserRow.get("errors"));
        bar.put("abuser_rate_limited", abuserRow.get("rate_limited"));
        bar.put("abuser_within_one_budget", abuserRow.get("within_one_budget"));
        bar.put("held", ratio <= 2.0 && (int) bar.get("well_behaved_refused") == 0 && (int) bar.get("errors") == 0
                && (int) abuserRow.get("rate_limited") > 0 && (boolean) abuserRow.get("within_one_budget"));
        series.put("bar", bar);
        System.out.println(">> fairness." + name + " bar: " + bar);
        return series;
    }

    /**
     * One phase: {@code abused} starts the abuser's threads for it; after {@code nanos} they stop sending, the phase
     * ends, and the gap follows (the abuser's last calls end in it; well-behaved calls sent then count for none).
     */
    private void phase(ExecutorService pool, Phase phase, boolean abused, long nanos, Agent abuser, List<String> bases,
            HttpClient abuserClient) throws Exception {
        CpuTime before = CpuTime.of(stack);
        double hostBefore = hostExchanges(bases);
        phase.start = System.nanoTime();
        current = phase;
        List<Future<?>> threads = new ArrayList<>();
        if (abused) {
            abusing = true;
            for (int t = 0; t < ABUSER_CONCURRENCY; t++) {
                String base = bases.get(t % bases.size());
                threads.add(pool.submit(() -> abuse(phase, abuser, base, abuserClient)));
            }
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(nanos));
        abusing = false;
        current = null;
        phase.end = System.nanoTime();
        phase.cpu = CpuTime.of(stack).minus(before);
        phase.hostExchanges = hostExchanges(bases) - hostBefore;
        for (Future<?> thread : threads) {
            thread.get(60, TimeUnit.SECONDS);
        }
        long rest = phase.end + GAP_NANOS - System.nanoTime();
        if (rest > 0) {
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(rest));
        }
    }

    private static double hostExchanges(List<String> bases) throws IOException, InterruptedException {
        double total = 0;
        for (String base : bases) {
            total += LoadHarness.hostExchanges(base);
        }
        return total;
    }

    /** A well-behaved agent: one call every {@value #PACE_MS} ms, never two at once, alternating {@code bases}. */
    private void paced(Agent agent, int index, List<String> bases) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        long pace = TimeUnit.MILLISECONDS.toNanos(PACE_MS);
        // Spread over the pace, so the eight agents do not call in step.
        long next = System.nanoTime() + pace * index / WELL_BEHAVED;
        for (int k = 0; running; k++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
            }
            int id = ids.incrementAndGet();
            // Alternating replicas, shifted every cycle of the mix, so every tool goes to each of them.
            HttpRequest request = LoadHarness.toolCall(bases.get((k + k / 8) % bases.size()), agent.token(), tool(k),
                    arguments(k, id, agent.id()), id);
            Phase phase = current;
            Sent sent;
            try {
                sent = send(client, request, tool(k));
            } catch (InterruptedException e) {
                return;
            }
            if (phase != null) {
                phase.wellBehaved(tool(k), sent.nanos(), sent.outcome(), sent.detail());
            }
            // Behind schedule (a slow answer): the next call goes at once, but the agent never catches up in a burst.
            next = Math.max(next + pace, System.nanoTime());
        }
    }

    /** The well-behaved mix, by call number: 4 in 8 wiki_read, 2 project_work_list, 1 t3_thread_list, 1 wiki_write. */
    private static String tool(int k) {
        return switch (k % 8) {
            case 0, 2, 4, 6 -> "wiki_read";
            case 1, 5 -> "project_work_list";
            case 3 -> "t3_thread_list";
            default -> "wiki_write";
        };
    }

    /** Call {@code k}'s arguments; a write creates a new page named by the call's id {@code id}. */
    private static Map<String, Object> arguments(int k, int id, String agent) {
        return switch (tool(k)) {
            case "wiki_read" -> Map.of("path", "notes/seed.md");
            case "wiki_write" -> Map.of("path", "notes/w-" + id + ".md", "content", "note " + id + " of " + agent);
            default -> Map.of();
        };
    }

    /** One abusive thread: sends at once whenever answered, until the phase ends. */
    private void abuse(Phase phase, Agent abuser, String base, HttpClient client) {
        while (abusing) {
            int i = ids.incrementAndGet();
            String shape = i % 2 == 0 ? WIKI_SHAPE : SUBMIT_SHAPE;
            String tool = shape.substring(0, shape.indexOf('.'));
            Map<String, Object> arguments = new LinkedHashMap<>(ArgumentSizeBenchmark.arguments(shape, i));
            if (tool.equals("project_work_submit")) {
                arguments.put("runId", run(abuser.id()));
                arguments.put("runRevision", "run:1");
                arguments.put("assignmentRevision", "position:1");
            }
            HttpRequest request = LoadHarness.toolCall(base, abuser.token(), tool, arguments, i);
            Sent sent;
            try {
                sent = send(client, request, tool);
            } catch (InterruptedException e) {
                return;
            }
            phase.abuser(sent.nanos(), quotaByTool.get(tool).bucketClass(), sent.outcome(), sent.detail());
        }
    }

    /** One call's answer as judged, a line for the report, and its wall time (send to body received, ns). */
    private record Sent(Outcome outcome, String detail, long nanos) {
    }

    /** Sends one call of {@code tool} and judges it; an I/O failure is an {@code ERROR}. */
    private static Sent send(HttpClient client, HttpRequest request, String tool) throws InterruptedException {
        long t0 = System.nanoTime();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Sent(classify(response), tool + " " + response.statusCode() + " " + brief(response.body()),
                    System.nanoTime() - t0);
        } catch (IOException e) {
            return new Sent(Outcome.ERROR, tool + " " + e, System.nanoTime() - t0);
        }
    }

    /**
     * A tool result: {@code OK}; a tool error of kind {@code rate_limited}: {@code RATE_LIMITED}; {@code denied} or
     * {@code unavailable}: {@code REFUSED}; any other service kind ({@code conflict}, {@code rejected}, …):
     * {@code SERVICE_REFUSED}; {@code internal}, a JSON-RPC error or another HTTP status: {@code ERROR}.
     */
    static Outcome classify(HttpResponse<String> response) throws IOException {
        if (response.statusCode() != 200) {
            return Outcome.ERROR;
        }
        JsonNode body = LoadHarness.JSON.readTree(response.body());
        JsonNode result = body.path("result");
        if (body.has("error") || result.isMissingNode()) {
            return Outcome.ERROR;
        }
        if (!result.path("isError").asBoolean(false)) {
            return Outcome.OK;
        }
        return switch (result.path("structuredContent").path("kind").asText("")) {
            case "rate_limited" -> Outcome.RATE_LIMITED;
            case "denied", "unavailable" -> Outcome.REFUSED;
            case "internal", "" -> Outcome.ERROR;
            default -> Outcome.SERVICE_REFUSED;
        };
    }

    private static String brief(String body) {
        return body.length() > 200 ? body.substring(0, 200) + "…" : body;
    }

    /** One phase as reported (class comment). */
    private Map<String, Object> report(Phase phase, int replicas) {
        Map<String, Object> report = new LinkedHashMap<>();
        double seconds = (phase.end - phase.start) / 1e9;
        report.put("round", phase.round);
        report.put("condition", phase.condition);
        report.put("seconds", LoadHarness.round(seconds));
        long[] wellBehaved = phase.wellBehaved.sorted();
        Map<String, Object> calls = new LinkedHashMap<>();
        calls.put("requests", wellBehaved.length);
        calls.put("p50_us", LoadHarness.round(LoadHarness.percentile(wellBehaved, 0.50) / 1000.0));
        calls.put("p99_us", LoadHarness.round(LoadHarness.percentile(wellBehaved, 0.99) / 1000.0));
        calls.put("ok", phase.wellBehavedOutcomes[Outcome.OK.ordinal()]);
        calls.put("refused", refused(phase.wellBehavedOutcomes));
        calls.put("errors", wellBehavedErrors(phase.wellBehavedOutcomes));
        calls.put("p99_us_by_tool", p99ByTool(List.of(phase)));
        report.put("well_behaved", calls);
        if (phase.condition.equals("abused")) {
            report.put("abuser", abuser(List.of(phase), replicas));
        }
        double wallNanos = Math.max(1e-9, seconds) * 1e9;
        CpuTime cpu = phase.cpu;
        Map<String, Object> cores = new LinkedHashMap<>();
        cores.put("gateway", cores(cpu.gateway(), wallNanos));
        cores.put("gateway_b", cores(cpu.gatewayB(), wallNanos));
        cores.put("database", cores(cpu.database(), wallNanos));
        cores.put("local_services", cores(cpu.backend(), wallNanos));
        cores.put("client", cores(cpu.client(), wallNanos));
        report.put("cpu_cores", cores);
        int phaseCalls = wellBehaved.length + Arrays.stream(phase.abuserOutcomes).sum();
        report.put("host_exchanges_per_call", Math.round(phase.hostExchanges * 100.0 / Math.max(1, phaseCalls))
                / 100.0);
        report.put("first_errors", phase.firstErrors);
        return report;
    }

    /** CPU time over wall time, in cores to two decimals. */
    private static double cores(long cpuNanos, double wallNanos) {
        return Math.round(cpuNanos / wallNanos * 100) / 100.0;
    }

    /**
     * The abuser in {@code phases}: calls, served per class against the budget of each phase (summed), rate_limited,
     * errors, and whether every phase stayed within one budget.
     */
    private Map<String, Object> abuser(List<Phase> phases, int replicas) {
        Map<String, Object> abuser = new LinkedHashMap<>();
        int calls = 0;
        int rateLimited = 0;
        int errors = 0;
        boolean within = true;
        Map<String, long[]> perClass = new TreeMap<>(); // class -> served ok, service refused, one budget, doubled
        for (Phase phase : phases) {
            calls += Arrays.stream(phase.abuserOutcomes).sum();
            rateLimited += phase.abuserOutcomes[Outcome.RATE_LIMITED.ordinal()];
            errors += phase.abuserOutcomes[Outcome.REFUSED.ordinal()] + phase.abuserOutcomes[Outcome.ERROR.ordinal()];
            double windowMinutes = (Math.max(phase.end, phase.lastAbuserAnswer) - phase.start) / 60e9;
            for (Quota quota : quotaByTool.values()) {
                int[] served = phase.served.getOrDefault(quota.bucketClass(), new int[2]);
                double refill = quota.ratePerMinute() * windowMinutes;
                long slack = replicas == 1 ? 0
                        : replicas * Math.max(1, (long) Math.floor(quota.burst() * SYNC_TOKENS));
                long one = (long) Math.floor(quota.burst() + refill) + slack;
                long doubled = (long) Math.floor(2 * (quota.burst() + refill));
                long[] sum = perClass.computeIfAbsent(quota.bucketClass(), c -> new long[4]);
                sum[0] += served[0];
                sum[1] += served[1];
                sum[2] += one;
                sum[3] += doubled;
                within &= served[0] + served[1] <= one;
            }
        }
        abuser.put("calls", calls);
        Map<String, Object> served = new LinkedHashMap<>();
        perClass.forEach((bucketClass, sum) -> {
            Map<String, Object> of = new LinkedHashMap<>();
            of.put("served", sum[0] + sum[1]);
            of.put("service_ok", sum[0]);
            of.put("service_refused", sum[1]);
            of.put("one_budget", sum[2]);
            of.put("doubled", sum[3]);
            served.put(bucketClass, of);
        });
        abuser.put("served", served);
        abuser.put("rate_limited", rateLimited);
        abuser.put("errors", errors);
        abuser.put("within_one_budget", within);
        return abuser;
    }

    private static Map<String, Object> wellBehavedRow(String name, List<Phase> phases, String condition) {
        Latencies pooled = new Latencies();
        int[] outcomes = new int[Outcome.values().length];
        double seconds = 0;
        List<String> firstErrors = new ArrayList<>();
        for (Phase phase : phases) {
            if (phase.condition.equals(condition)) {
                for (long nanos : phase.wellBehaved.sorted()) {
                    pooled.add(nanos);
                }
                for (int o = 0; o < outcomes.length; o++) {
                    outcomes[o] += phase.wellBehavedOutcomes[o];
                }
                seconds += (phase.end - phase.start) / 1e9;
                phase.firstErrors.stream().filter(e -> e.startsWith("well-behaved")).limit(5 - firstErrors.size())
                        .forEach(firstErrors::add);
            }
        }
        long[] sorted = pooled.sorted();
        Map<String, Object> row = latencyRow(name, sorted, seconds);
        row.put("errors", wellBehavedErrors(outcomes));
        row.put("refused", refused(outcomes));
        row.put("requests", sorted.length);
        row.put("p99_us_by_tool", p99ByTool(phases.stream().filter(p -> p.condition.equals(condition)).toList()));
        row.put("first_errors", firstErrors);
        return row;
    }

    /**
     * A results.json row's start: its name, the p50 and p99 (µs) of {@code sorted} (ns) and its calls per second
     * over {@code seconds}.
     */
    private static Map<String, Object> latencyRow(String name, long[] sorted, double seconds) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", name);
        row.put("p50_us", LoadHarness.round(LoadHarness.percentile(sorted, 0.50) / 1000.0));
        row.put("p99_us", LoadHarness.round(LoadHarness.percentile(sorted, 0.99) / 1000.0));
        row.put("ops_s", LoadHarness.round(sorted.length / Math.max(1e-9, seconds)));
        return row;
    }

    /** The well-behaved calls' p99 per tool over {@code phases}, in µs. */
    private static Map<String, Object> p99ByTool(List<Phase> phases) {
        Map<String, Latencies> pooled = new TreeMap<>();
        for (Phase phase : phases) {
            phase.wellBehavedByTool.forEach((tool, latencies) -> {
                Latencies into = pooled.computeIfAbsent(tool, t -> new Latencies());
                for (long nanos : latencies.sorted()) {
                    into.add(nanos);
                }
            });
        }
        Map<String, Object> p99 = new LinkedHashMap<>();
        pooled.forEach((tool, latencies) -> p99.put(tool,
                LoadHarness.round(LoadHarness.percentile(latencies.sorted(), 0.99) / 1000.0)));
        return p99;
    }

    /**
     * What the abuser's calls cost each process, in µs of CPU per abuser call: the CPU of the abused phases less what
     * their well-behaved calls cost at the alone phases' CPU per well-behaved call, divided by the abuser's calls.
     */
    private static Map<String, Object> abuserCost(List<Phase> phases) {
        CpuTime alone = CpuTime.NONE;
        CpuTime abused = CpuTime.NONE;
        long aloneCalls = 0;
        long abusedCalls = 0;
        long abuserCalls = 0;
        for (Phase phase : phases) {
            long calls = phase.wellBehaved.sorted().length;
            if (phase.condition.equals("alone")) {
                alone = alone.plus(phase.cpu);
                aloneCalls += calls;
            } else {
                abused = abused.plus(phase.cpu);
                abusedCalls += calls;
                abuserCalls += Arrays.stream(phase.abuserOutcomes).sum();
            }
        }
        double scale = (double) abusedCalls / Math.max(1, aloneCalls);
        double per = Math.max(1, abuserCalls) * 1000.0;
        Map<String, Object> cost = new LinkedHashMap<>();
        cost.put("abuser_calls", abuserCalls);
        cost.put("gateways_cpu_us_per_call", LoadHarness.round((abused.gateway() + abused.gatewayB()
                - scale * (alone.gateway() + alone.gatewayB())) / per));
        cost.put("database_cpu_us_per_call", LoadHarness.round((abused.database() - scale * alone.database()) / per));
        cost.put("local_services_cpu_us_per_call", LoadHarness.round((abused.backend() - scale * alone.backend())
                / per));
        cost.put("client_cpu_us_per_call", LoadHarness.round((abused.client() - scale * alone.client()) / per));
        return cost;
    }

    private Map<String, Object> abuserRow(String name, List<Phase> phases, int replicas) {
        List<Phase> abused = phases.stream().filter(p -> p.condition.equals("abused")).toList();
        Latencies pooled = new Latencies();
        double seconds = 0;
        for (Phase phase : abused) {
            for (long nanos : phase.abuser.sorted()) {
                pooled.add(nanos);
            }
            seconds += (phase.end - phase.start) / 1e9;
        }
        long[] sorted = pooled.sorted();
        Map<String, Object> row = latencyRow(name, sorted, seconds);
        Map<String, Object> abuser = abuser(abused, replicas);
        row.put("errors", abuser.get("errors"));
        // The abuser's calls beyond its budget are rate_limited, not refused: a refusal would be a denial.
        row.put("refused", 0);
        row.put("requests", sorted.length);
        row.putAll(abuser);
        return row;
    }

    private static int refused(int[] outcomes) {
        return outcomes[Outcome.RATE_LIMITED.ordinal()] + outcomes[Outcome.REFUSED.ordinal()];
    }

    /** A well-behaved call the service refused is an error too: each of them is valid against current state. */
    private static int wellBehavedErrors(int[] outcomes) {
        return outcomes[Outcome.ERROR.ordinal()] + outcomes[Outcome.SERVICE_REFUSED.ordinal()];
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return String.join(" ", fields[0], fields[1], fields[2]);
        } catch (IOException e) {
            return "?";
        }
    }
}
