package dev.gatehouse.bench;

import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The embedded PDP end to end as the gate calls it: typed input → JSON → Wasm → parsed decision. One PDP is shared
 * by all benchmark threads, with one pool instance per available core (as in production), so two threads measure
 * the pool as well. Modes and thread counts come from the command line (scripts/bench.sh).
 */
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EmbeddedPdpBenchmark {

    private EmbeddedPdp pdp;

    /** Builds the PDP and checks that the benchmarked call is the allowed one with its obligation. */
    @Setup
    public void setUp() {
        pdp = Fixture.pdp(Runtime.getRuntime().availableProcessors());
        PolicyOutcome<Decision> outcome = pdp.decide(Fixture.WIKI_WRITE);
        if (!(outcome instanceof PolicyOutcome.Decided<Decision> decided) || !decided.value().allow()
                || decided.value().obligations().wikiPath("path").isEmpty()) {
            throw new IllegalStateException("the benchmarked wiki_write is not an allow with a path: " + outcome);
        }
        PolicyOutcome<Decision> launch = pdp.decide(Fixture.THREAD_LAUNCH);
        if (!(launch instanceof PolicyOutcome.Decided<Decision> launched) || !launched.value().allow()
                || launched.value().obligations().modes().isEmpty()) {
            throw new IllegalStateException("the benchmarked t3_thread_launch is not an allow with modes: " + launch);
        }
        if (!(pdp.visibleTools(Fixture.LISTING) instanceof PolicyOutcome.Decided<VisibleTools>)) {
            throw new IllegalStateException("tools/list is not decided");
        }
    }

    /** tools/call wiki_write, allowed with a wiki path obligation. */
    @Benchmark
    public PolicyOutcome<Decision> toolsCallWikiWrite() {
        return pdp.decide(Fixture.WIKI_WRITE);
    }

    /** tools/call t3_thread_launch, allowed with a modes obligation; evaluates no wiki path rule. */
    @Benchmark
    public PolicyOutcome<Decision> toolsCallThreadLaunch() {
        return pdp.decide(Fixture.THREAD_LAUNCH);
    }

    /** tools/list: visible_tools for a caller with every scope. */
    @Benchmark
    public PolicyOutcome<VisibleTools> toolsList() {
        return pdp.visibleTools(Fixture.LISTING);
    }
}
