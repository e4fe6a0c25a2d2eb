package dev.gatehouse.bench;

import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.DecisionArguments;
import dev.gatehouse.facts.ToolSchema;
import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the size of a call's arguments does to its decision, on a ring of {@value #RING} calls whose paths or run
 * ids differ: the embedded PDP's evaluation of the input the PEP prepared ({@code decision}: the time an engine
 * instance is held, results.json {@code decision.arguments.<shape>}) and the PEP's argument step that prepares it
 * ({@code argumentStep}: {@link DecisionArguments}, the envelope, the closed-schema check and the omission of long
 * strings, on the caller's thread, {@code pep.arguments.<shape>}). The {@code typical} shape of each tool is the
 * base the others are compared with in results.md.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ArgumentSizeBenchmark {

    static final int RING = 64;
    private static final String CONTENT_512K = "x".repeat(512 * 1024 - 16);

    /** Tool and shape of the arguments, see {@link #arguments}. */
    @Param({"wiki_write.typical", "wiki_write.content_512k", "wiki_write.path_longest_ascii",
        "wiki_write.path_longest_arabic", "wiki_write.unknown_8", "wiki_write.members_20000", "wiki_write.name_50000",
        "project_work_submit.typical", "project_work_submit.business_64",
        "project_work_submit.business_64_emoji_names", "project_work_submit.business_20000"})
    public String shape;

    private EmbeddedPdp pdp;
    private final ArgumentLimits limits = new ArgumentLimits();
    private ToolSchema schema;
    private Set<String> readFields;
    private String tool;
    private final List<Map<String, Object>> ring = new ArrayList<>();
    private final List<DecisionInput> inputs = new ArrayList<>();
    private int next;
    private boolean allow;
    private final DecisionCheck outcomes = new DecisionCheck();

    @Setup
    public void setUp() {
        pdp = Fixture.pdp(Runtime.getRuntime().availableProcessors());
        tool = tool(shape);
        schema = Fixture.schema(tool);
        readFields = Fixture.row(tool).readFields();
        for (int i = 0; i < RING; i++) {
            ring.add(arguments(shape, i));
        }
        allow = allowed(shape);
        inputs.addAll(inputs(shape));
        for (int i = 0; i < RING; i++) {
            PolicyOutcome<Decision> outcome = pdp.decide(inputs.get(i));
            if (!DecisionCheck.expected(outcome, allow, tool.equals("wiki_write") && allow)) {
                throw new IllegalStateException(shape + ": expected allow=" + allow + ": " + outcome);
            }
        }
    }

    /** Within the envelope a call is decided as before; beyond it, it is refused: the shapes say which. */
    static boolean allowed(String shape) {
        return shape.endsWith(".typical") || shape.endsWith("content_512k") || shape.contains("path_longest")
                || shape.contains("business_64");
    }

    /**
     * The decision inputs of {@code shape}'s ring of {@value #RING} calls, as the PEP's argument step prepares them
     * with the default limits (also decided by {@link BundleComparison}).
     */
    static List<DecisionInput> inputs(String shape) {
        String tool = tool(shape);
        ToolSchema schema = Fixture.schema(tool);
        AccessRow row = Fixture.row(tool);
        ArgumentLimits limits = new ArgumentLimits();
        List<DecisionInput> inputs = new ArrayList<>();
        for (int i = 0; i < RING; i++) {
            inputs.add(new DecisionInput(tool, ArgumentFacts.of(Optional.of(schema), Optional.of(row),
                    arguments(shape, i), limits, Fixture.CALLER.subtreeIds()), Fixture.CALLER, Map.of()));
        }
        return inputs;
    }

    private static String tool(String shape) {
        return shape.substring(0, shape.indexOf('.'));
    }

    /**
     * The arguments of call {@code i} of {@code shape} ({@code <tool>.<kind>}); paths and run ids differ from call
     * to call. {@code content_512k}: a page at the schema's longest; {@code path_longest_*}: the longest path the
     * policy admits (32 segments of 251 UTF-8 bytes), in ASCII or Arabic letters; {@code unknown_8}: 8 unknown members, the most
     * a closed schema's arguments may carry and still be validated and sent; {@code members_20000}: 20,000 of them;
     * {@code name_50000}: one member named with 50,000 characters (Jackson's longest name); {@code business_64}:
     * a work result at the gateway's default business-data width ({@code _emoji_names}: with names near the
     * bytes all names may take); {@code business_20000}: far beyond it.
     */
    static Map<String, Object> arguments(String shape, int i) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        if (shape.startsWith("wiki_write.")) {
            arguments.put("path", shape.contains("path_longest") ? longestPath(shape.endsWith("arabic"), i)
                    : "notes-" + i + "/page-" + i + ".md");
            arguments.put("content", shape.endsWith("content_512k") ? CONTENT_512K + i : "hello " + i);
            arguments.put("baseRevision", "r" + i);
            if (shape.endsWith("members_20000") || shape.endsWith("unknown_8")) {
                for (int j = 0; j < (shape.endsWith("unknown_8") ? 8 : 20_000); j++) {
                    arguments.put("member" + j, "v" + i);
                }
            } else if (shape.endsWith("name_50000")) {
                arguments.put("n".repeat(49_990) + i, "v");
            }
            return arguments;
        }
        arguments.put("runId", "run-" + i);
        arguments.put("runRevision", "run:" + (i + 1));
        arguments.put("assignmentRevision", "position:1");
        Map<String, Object> result = new LinkedHashMap<>();
        int members = shape.contains("business_64") ? 64 : shape.endsWith("business_20000") ? 20_000 : 2;
        for (int j = 0; j < members; j++) {
            // Emoji names: 14 UTF-8 bytes each, 64 of them near the 1,024 bytes all names may take.
            result.put(shape.endsWith("emoji_names") ? "%02d".formatted(j) + "\uD83D\uDE00".repeat(3)
                    : "field" + j, "value " + i);
        }
        arguments.put("result", result);
        return arguments;
    }

    /** 32 segments of 251 UTF-8 bytes: {@code i} in digits, then ASCII letters or two-byte Arabic letters. */
    private static String longestPath(boolean arabic, int i) {
        List<String> segments = new ArrayList<>();
        for (int s = 0; s < 32; s++) {
            String start = i + "-" + s;
            int bytes = 251 - start.length();
            segments.add(start + (arabic ? "\u0628".repeat(bytes / 2) + "a".repeat(bytes % 2) : "a".repeat(bytes)));
        }
        return String.join("/", segments);
    }

    private DecisionArguments.Prepared argumentStep(Map<String, Object> arguments) {
        return DecisionArguments.prepare(Optional.of(schema), readFields, arguments, limits);
    }

    @TearDown
    public void tearDown(BenchmarkParams params) {
        outcomes.write(params);
    }

    /** The PDP's evaluation of the prepared input: the time an engine instance is held. */
    @Benchmark
    public PolicyOutcome<Decision> decision() {
        PolicyOutcome<Decision> outcome = pdp.decide(inputs.get(next++ % RING));
        outcomes.judge(outcome, allow, tool.equals("wiki_write") && allow);
        return outcome;
    }

    /** The PEP's argument step alone (envelope, closed-schema check, omission), on the caller's thread. */
    @Benchmark
    public DecisionArguments.Prepared argumentStep() {
        return argumentStep(ring.get(next++ % RING));
    }
}
