package dev.gatehouse.bench;

import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
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
 * Allowed wiki_write decisions whose folder and page names are words of one script ({@link InputRing.Script}), on a
 * ring of distinct inputs. results.json's {@code decision.wiki_write.nonascii} is the worst script (highest p50)
 * of those run; every script is in results.md.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class NonAsciiWriteBenchmark {

    @Param({"CYRILLIC", "CJK", "ARABIC", "GREEK", "HANGUL", "DEVANAGARI", "HEBREW", "THAI", "ARMENIAN",
        "LATIN_ACCENTED"})
    public String script;

    private EmbeddedPdp pdp;
    private InputRing writes;
    private final DecisionCheck check = new DecisionCheck();

    @Setup
    public void setUp() {
        pdp = Fixture.pdp(Runtime.getRuntime().availableProcessors());
        writes = InputRing.nonAsciiWrites(InputRing.Script.valueOf(script));
        for (DecisionInput input : writes.sample()) {
            PolicyOutcome<Decision> outcome = pdp.decide(input);
            if (!DecisionCheck.expected(outcome, true, true)) {
                throw new IllegalStateException(script + ": not allowed with a path: " + input + ": " + outcome);
            }
        }
    }

    @TearDown
    public void tearDown(BenchmarkParams params) {
        check.write(params);
    }

    @Benchmark
    public PolicyOutcome<Decision> wikiWrite() {
        PolicyOutcome<Decision> outcome = pdp.decide(writes.next());
        check.judge(outcome, true, true);
        return outcome;
    }
}
