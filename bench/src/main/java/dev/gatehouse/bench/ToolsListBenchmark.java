package dev.gatehouse.bench;

import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import java.nio.file.Path;
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
 * tools/list ({@code visible_tools}) by size of the access table: {@code real} is the bundle's own table; {@code 100}
 * and {@code 1000} are bundles scripts/bench.sh builds from a temporary copy of policies/ whose access table has that
 * many rows (the real rows copied under new names), in {@code -Dgatehouse.bench.bundles}. Callers cycle through a
 * ring of distinct ids and all 16 combinations of settings.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ToolsListBenchmark {

    @Param({"real", "100", "1000"})
    public String rows;

    private EmbeddedPdp pdp;
    private InputRing listings;
    private final DecisionCheck check = new DecisionCheck();

    @Setup
    public void setUp() {
        Path bundle = rows.equals("real") ? Fixture.bundle()
                : Path.of(System.getProperty("gatehouse.bench.bundles", "bench/target/bundles"),
                        "bundle-" + rows + ".tar.gz");
        pdp = Fixture.pdp(bundle, Runtime.getRuntime().availableProcessors());
        listings = InputRing.listings();
        for (int i = 0; i < 64; i++) {
            PolicyOutcome<VisibleTools> outcome = pdp.visibleTools(listings.all()[i]);
            if (!DecisionCheck.listed(outcome)) {
                throw new IllegalStateException("tools/list not decided on " + bundle + ": " + outcome);
            }
        }
    }

    @TearDown
    public void tearDown(BenchmarkParams params) {
        check.write(params);
    }

    @Benchmark
    public PolicyOutcome<VisibleTools> toolsList() {
        PolicyOutcome<VisibleTools> outcome = pdp.visibleTools(listings.next());
        check.count(DecisionCheck.listed(outcome));
        return outcome;
    }
}
