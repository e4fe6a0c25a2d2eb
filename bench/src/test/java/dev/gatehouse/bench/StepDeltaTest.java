package dev.gatehouse.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One series' share of the gateway's step timers, from two reads of {@code /admin/pipeline-timings}: counts and means
 * of the difference, and for a timer with buckets (the engine's) the percentiles of the series alone.
 */
class StepDeltaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theEnginesPercentilesAreOfTheSeriesBetweenTheTwoReads() throws Exception {
        // Before: 100 evaluations, all ≤ 50 µs. Between the reads: 100 more, 60 ≤ 50 µs, 39 ≤ 100 µs, 1 ≤ 500 µs.
        JsonNode before = JSON.readTree("""
                [{"timer": "engine", "step": "decision", "outcome": "cpu", "count": 100, "totalMicros": 4000,
                  "buckets": [[50, 100], [100, 100], [500, 100]]}]""");
        JsonNode after = JSON.readTree("""
                [{"timer": "engine", "step": "decision", "outcome": "cpu", "count": 200, "totalMicros": 11000,
                  "buckets": [[50, 160], [100, 199], [500, 200]]},
                 {"timer": "gate", "step": "decision", "outcome": "all", "count": 5, "totalMicros": 50}]""");

        Map<String, Object> engine = LoadHarness.stepDelta(before, after, "engine");
        assertEquals(Map.of("count", 100L, "mean_us", 70.0, "p50_us_at_most", 50.0, "p99_us_at_most", 100.0),
                engine.get("decision"));
        assertEquals(Map.of("evaluations_per_call", 0.5, "cpu_us_per_evaluation", 70.0, "cpu_us_p50_at_most", 50.0,
                "cpu_us_p99_at_most", 100.0), LoadHarness.engineCpu(engine, 200).get("decision"));
    }

    @Test
    void aTimerWithoutBucketsHasNoPercentiles() throws Exception {
        JsonNode after = JSON.readTree("""
                [{"timer": "gate", "step": "decision", "outcome": "all", "count": 5, "totalMicros": 50}]""");
        Map<String, Object> gate = LoadHarness.stepDelta(JSON.readTree("[]"), after, "gate");
        assertEquals(Map.of("count", 5L, "mean_us", 10.0), gate.get("decision"));
        assertFalse(LoadHarness.engineCpu(gate, 5).values().toString().contains("p50"));
    }
}
