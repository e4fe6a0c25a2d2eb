package dev.gatehouse.bench;

import dev.gatehouse.gateway.policy.MemoConfiguration;
import dev.gatehouse.gateway.policy.MemoizingPdp;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The decision memo's hit path ({@link MemoizingPdp} in front of the embedded PDP): the rings of
 * {@link DecisionBenchmark} and {@link ToolsListBenchmark}, each input decided once in setup (a miss), then cycled
 * through while timed, so every timed call is a hit (marshalling, the JSON key, the lookup). A timed call that misses
 * or whose outcome is not the expected one is an error in results.json. results.json names: {@code memo.launch.allowed},
 * {@code memo.wiki_write.ascii}, {@code memo.denied}, {@code memo.tools_list}. These numbers are answered from the
 * memo by construction; the {@code decision.*} rows are the ones no memo can answer.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MemoBenchmark {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private MemoizingPdp memo;
    private InputRing ring;
    private final DecisionCheck check = new DecisionCheck();

    @Setup
    public void setUp(BenchmarkParams params) {
        memo = MemoizingPdp.over(Fixture.pdp(Runtime.getRuntime().availableProcessors()), new MemoConfiguration(),
                meters);
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        ring = switch (method) {
            case "launchAllowed" -> InputRing.launches();
            case "wikiWriteAscii" -> InputRing.asciiWrites();
            case "toolsList" -> InputRing.listings();
            default -> InputRing.denials();
        };
        for (DecisionInput input : ring.all()) {
            if (method.equals("toolsList")) {
                memo.visibleTools(input);
            } else {
                memo.decide(input);
            }
        }
    }

    /** Every timed call must have been a hit: the misses are exactly the ring's size, counted in setup. */
    @TearDown
    public void tearDown(BenchmarkParams params) {
        double misses = meters.find(MemoizingPdp.COUNTER).tag("outcome", "miss").counters().stream()
                .mapToDouble(c -> c.count()).sum();
        for (double extra = misses - InputRing.SIZE; extra > 0; extra--) {
            check.count(false);
        }
        check.write(params);
    }

    @Benchmark
    public PolicyOutcome<Decision> launchAllowed() {
        PolicyOutcome<Decision> outcome = memo.decide(ring.next());
        check.judge(outcome, true, false);
        return outcome;
    }

    @Benchmark
    public PolicyOutcome<Decision> wikiWriteAscii() {
        PolicyOutcome<Decision> outcome = memo.decide(ring.next());
        check.judge(outcome, true, true);
        return outcome;
    }

    @Benchmark
    public PolicyOutcome<Decision> denied() {
        PolicyOutcome<Decision> outcome = memo.decide(ring.next());
        check.judge(outcome, false, false);
        return outcome;
    }

    @Benchmark
    public PolicyOutcome<VisibleTools> toolsList() {
        PolicyOutcome<VisibleTools> outcome = memo.visibleTools(ring.next());
        check.count(DecisionCheck.listed(outcome));
        return outcome;
    }
}
