package dev.gatehouse.gateway.policy.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.bundle.AcceptedRevisions;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.telemetry.CumulativeBuckets;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The engine's CPU time per evaluation ({@link EngineCpu}): each Wasm evaluation is recorded under its own entry
 * point, with the CPU time it took and in its bucket; a call that evaluates nothing records nothing.
 */
class EngineCpuTest {

    private static final CallerFacts CALLER = Facts.a1();

    @Test
    void eachEvaluationIsRecordedUnderItsEntryPoint() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        EmbeddedPdp pdp = pdp(meters);
        long before = timer(meters, "decision").count(); // the revision's self-test evaluates too
        long listingsBefore = timer(meters, "visible_tools").count();

        for (int i = 0; i < 3; i++) {
            assertInstanceOf(PolicyOutcome.Decided.class, pdp.decide(call(Map.of("path", "page-" + i + ".md"))));
        }
        assertEquals(before + 3, timer(meters, "decision").count());
        assertTrue(timer(meters, "decision").totalTime(TimeUnit.NANOSECONDS) > 0);
        // Cumulative buckets from 1 µs to 5 s: the widest holds every evaluation, and the harness reads percentiles.
        CountAtBucket[] buckets = timer(meters, "decision").takeSnapshot().histogramCounts();
        assertEquals(CumulativeBuckets.MICROS.length, buckets.length);
        assertEquals(before + 3, buckets[buckets.length - 1].count());
        assertTrue(buckets[0].count() < before + 3, "no evaluation takes under 1 µs of CPU");
        assertEquals(listingsBefore, timer(meters, "visible_tools").count(), "no listing was evaluated");

        assertInstanceOf(PolicyOutcome.Decided.class, pdp.visibleTools(DecisionInput.forListing(CALLER)));
        assertEquals(listingsBefore + 1, timer(meters, "visible_tools").count());
    }

    @Test
    void anInputNotEvaluatedRecordsNothing() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        EmbeddedPdp pdp = pdp(meters);
        Map<String, Object> deep = new HashMap<>();
        Map<String, Object> level = deep;
        for (int i = 0; i < 5_000; i++) { // nested past what Jackson writes: a fault before any evaluation
            Map<String, Object> next = new HashMap<>();
            level.put("k", next);
            level = next;
        }
        long before = timer(meters, "decision").count();
        assertInstanceOf(PolicyOutcome.Failed.class, pdp.decide(call(deep)));
        assertEquals(before, timer(meters, "decision").count());
    }

    private static EmbeddedPdp pdp(SimpleMeterRegistry meters) {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(TestBundle.freshBundle());
        configuration.setAllowUnsigned(true);
        configuration.setPoolSize(1);
        return new EmbeddedPdp(configuration, meters, contents -> List.of(), AcceptedRevisions.inMemory(),
                Clock.systemUTC());
    }

    private static Timer timer(SimpleMeterRegistry meters, String entrypoint) {
        return meters.get(EngineCpu.TIMER).tag("entrypoint", entrypoint).timer();
    }

    private static DecisionInput call(Map<String, Object> arguments) {
        return new DecisionInput(Optional.of("wiki_read"), Optional.of(arguments), List.of(), CALLER, Map.of());
    }
}
