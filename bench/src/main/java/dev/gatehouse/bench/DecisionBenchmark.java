package dev.gatehouse.bench;

import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * tools/call decisions of the embedded PDP on inputs that change every operation: each benchmark cycles through a
 * ring of {@value InputRing#SIZE} distinct inputs ({@link InputRing}), a sample of them checked in setup to get the
 * expected verdict and every outcome checked while timed ({@link DecisionCheck}). results.json names:
 * {@code decision.launch.allowed}, {@code decision.wiki_write.ascii}, {@code decision.denied}.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecisionBenchmark {

    private EmbeddedPdp pdp;
    private InputRing launches;
    private InputRing writes;
    private InputRing denials;
    private final DecisionCheck check = new DecisionCheck();

    /** Builds and checks only the ring of the benchmark about to run. */
    @Setup
    public void setUp(BenchmarkParams params) {
        pdp = Fixture.pdp(Runtime.getRuntime().availableProcessors());
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        switch (method) {
            case "launchAllowed" -> launches = verified(InputRing.launches(), true, false);
            case "wikiWriteAscii" -> writes = verified(InputRing.asciiWrites(), true, true);
            default -> denials = verified(InputRing.denials(), false, false);
        }
    }

    private InputRing verified(InputRing ring, boolean allow, boolean wikiPath) {
        for (DecisionInput input : ring.sample()) {
            PolicyOutcome<Decision> outcome = pdp.decide(input);
            if (!DecisionCheck.expected(outcome, allow, wikiPath)) {
                throw new IllegalStateException("expected allow=" + allow + " for " + input + ": " + outcome);
            }
        }
        return ring;
    }

    @TearDown
    public void tearDown(BenchmarkParams params) {
        check.write(params);
    }

    /** t3_thread_launch, allowed with a modes obligation (no wiki path rule). */
    @Benchmark
    public PolicyOutcome<Decision> launchAllowed() {
        PolicyOutcome<Decision> outcome = pdp.decide(launches.next());
        check.judge(outcome, true, false);
        return outcome;
    }

    /** wiki_write with ASCII paths, allowed with the wiki path obligation. */
    @Benchmark
    public PolicyOutcome<Decision> wikiWriteAscii() {
        PolicyOutcome<Decision> outcome = pdp.decide(writes.next());
        check.judge(outcome, true, true);
        return outcome;
    }

    /** Denied calls of three kinds in turn (path escape, unknown tool, capability missing): reasons computed. */
    @Benchmark
    public PolicyOutcome<Decision> denied() {
        PolicyOutcome<Decision> outcome = pdp.decide(denials.next());
        check.judge(outcome, false, false);
        return outcome;
    }
}
