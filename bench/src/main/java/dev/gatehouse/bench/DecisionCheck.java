package dev.gatehouse.bench;

import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Counts, during a benchmark, the evaluations whose outcome is not the expected one (an error for results.json), and
 * writes the count at the end of the trial to {@code -Dgatehouse.bench.errors-dir} as
 * {@code <benchmark>[-<param>=<value>…].errors} (three numbers: errors, refusals, outcomes checked);
 * bench/render-results.py reads them back. The check costs nanoseconds.
 */
final class DecisionCheck {

    private final LongAdder errors = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder checked = new LongAdder();

    /** The decision was reached and its allow is {@code allow}; when allowed, the wiki path is obligated if asked. */
    static boolean expected(PolicyOutcome<Decision> outcome, boolean allow, boolean wikiPath) {
        return outcome instanceof PolicyOutcome.Decided<Decision> decided && decided.value().allow() == allow
                && (!allow || !wikiPath || decided.value().obligations().wikiPath("path").isPresent());
    }

    static boolean listed(PolicyOutcome<VisibleTools> outcome) {
        return outcome instanceof PolicyOutcome.Decided<VisibleTools>;
    }

    void count(boolean ok) {
        checked.increment();
        if (!ok) {
            errors.increment();
        }
    }

    /**
     * Counts a tools/call outcome: a denial of a call expected to be allowed is a refusal, any other unexpected
     * outcome (no decision, an allow expected to be a denial, a missing wiki path obligation) an error.
     */
    void judge(PolicyOutcome<Decision> outcome, boolean allow, boolean wikiPath) {
        checked.increment();
        if (expected(outcome, allow, wikiPath)) {
            return;
        }
        if (allow && outcome instanceof PolicyOutcome.Decided<Decision> decided && !decided.value().allow()) {
            refused.increment();
        } else {
            errors.increment();
        }
    }

    void write(BenchmarkParams params) {
        StringBuilder name = new StringBuilder(params.getBenchmark());
        for (String key : params.getParamsKeys()) {
            name.append('-').append(key).append('=').append(params.getParam(key));
        }
        String dir = System.getProperty("gatehouse.bench.errors-dir", "bench/target/decision-errors");
        try {
            Files.createDirectories(Path.of(dir));
            Files.writeString(Path.of(dir, name + ".errors"),
                    errors.sum() + " " + refused.sum() + " " + checked.sum() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
