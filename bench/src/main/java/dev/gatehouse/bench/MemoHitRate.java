package dev.gatehouse.bench;

import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.gateway.policy.MemoConfiguration;
import dev.gatehouse.gateway.policy.MemoizingPdp;
import dev.gatehouse.facts.DecisionInput;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The memo's hit rate on a realistic mixed trace: the load harness's mixed call mix ({@code LoadHarness}, same seed
 * and proportions: 30 % wiki_read of 40 pages written first, 10 % new ASCII pages, 15 % new pages in other scripts,
 * 20 % project_work_list, 20 % t3_thread_list, 5 % denials of four kinds) as the decision inputs the gate builds for
 * its one caller, replayed once through a fresh {@link MemoizingPdp} with the default size. Writes
 * {@code {calls, hits, misses, skipped, hit_rate}} as JSON to the path given (bench/target/memo-hit-rate.json).
 *
 * <p>Usage: {@code java -cp <bench classpath> dev.gatehouse.bench.MemoHitRate <out.json> [calls]}
 */
public final class MemoHitRate {

    private static final ArgumentLimits LIMITS = new ArgumentLimits();

    private MemoHitRate() {
    }

    public static void main(String[] args) throws IOException {
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        MemoizingPdp memo = MemoizingPdp.over(Fixture.pdp(1), new MemoConfiguration(), meters);
        for (DecisionInput input : trace(count)) {
            memo.decide(input);
        }
        double hits = count(meters, "hit");
        double misses = count(meters, "miss");
        double skipped = count(meters, "skipped");
        String json = String.format("{\"calls\": %d, \"hits\": %.0f, \"misses\": %.0f, \"skipped\": %.0f, "
                + "\"hit_rate\": %.4f}%n", count, hits, misses, skipped, hits / count);
        Files.writeString(Path.of(args[0]), json);
        System.out.print(">> memo hit rate on the mixed trace: " + json);
    }

    private static double count(SimpleMeterRegistry meters, String outcome) {
        return meters.get(MemoizingPdp.COUNTER).tag("entrypoint", "decision").tag("outcome", outcome).counter()
                .count();
    }

    /** The mixed trace as decision inputs of the harness's caller (agent a1 on thread t1). */
    static List<DecisionInput> trace(int count) {
        SplittableRandom random = new SplittableRandom(7);
        InputRing.Script[] scripts = InputRing.Script.values();
        List<String> pages = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            InputRing.Script script = scripts[i % scripts.length];
            pages.add(i < 10 ? "mixed/seed-" + i + ".md"
                    : script.word(random, 4 + random.nextInt(5)) + "/" + script.word(random, 3 + random.nextInt(6))
                            + "-" + i + ".md");
        }
        List<DecisionInput> calls = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int r = random.nextInt(100);
            InputRing.Script script = scripts[i % scripts.length];
            if (r < 30) {
                calls.add(call("wiki_read", Map.of("path", pages.get(random.nextInt(pages.size())))));
            } else if (r < 40) {
                calls.add(call("wiki_write", Map.of("path", "mixed/w-" + i + ".md", "content", "text " + i)));
            } else if (r < 55) {
                calls.add(call("wiki_write", Map.of("path", script.word(random, 4 + random.nextInt(5)) + "/"
                        + script.word(random, 3 + random.nextInt(6)) + "-" + i + ".md", "content", "текст 文本 " + i)));
            } else if (r < 75) {
                calls.add(call("project_work_list", Map.of()));
            } else if (r < 95) {
                calls.add(call("t3_thread_list", Map.of()));
            } else {
                calls.add(switch (i % 4) {
                    case 0 -> call("wiki_read", Map.of("path", "../a2/secret.md"));
                    case 1 -> call("no_such_tool", Map.of());
                    case 2 -> call("wiki_write", Map.of("path", "notes/star-★-" + i + ".md", "content", "x"));
                    default -> call("wiki_read", Map.of("path", "notes/../../a2/secret.md"));
                });
            }
        }
        return calls;
    }

    /**
     * The input the gate sends for this call, its facts derived as the gate derives them: a name the revision does
     * not serve has no row and no schema (the trace's {@code no_such_tool}).
     */
    private static DecisionInput call(String tool, Map<String, Object> arguments) {
        Optional<AccessRow> row = Fixture.servedRow(tool);
        return new DecisionInput(tool, ArgumentFacts.of(row.map(served -> Fixture.schema(tool)), row, arguments,
                LIMITS, Fixture.CALLER.subtreeIds()), Fixture.CALLER, Map.of());
    }
}
