package dev.gatehouse.gateway.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Counting in flight and draining: refuse new requests at once, return when idle or at the deadline. */
class CallTrackerTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void drainReturnsAtTheDeadlineWithWhatIsStillInFlight() {
        CallTracker calls = new CallTracker(meters);
        assertTrue(calls.enter());
        assertTrue(calls.enter());
        assertEquals(2, meters.get(CallTracker.GAUGE).gauge().value());
        calls.exit();
        assertEquals(1, calls.drain(Duration.ofMillis(50)), "one still in flight at the deadline");
        assertTrue(calls.draining());
        assertFalse(calls.enter(), "refused while draining");
        assertEquals(1, calls.inFlight(), "a refused request is not counted");
        calls.exit();
        assertEquals(0, calls.drain(Duration.ofMillis(50)));
        assertEquals(0, meters.get(CallTracker.GAUGE).gauge().value());
    }

    @Test
    void drainReturnsAsSoonAsTheLastCallLeaves() throws Exception {
        CallTracker calls = new CallTracker(meters);
        assertTrue(calls.enter());
        Thread leaver = new Thread(() -> {
            while (!calls.draining()) {
                Thread.onSpinWait();
            }
            calls.exit();
        });
        leaver.start();
        assertEquals(0, calls.drain(Duration.ofMinutes(5)), "woken by the exit, not by the deadline");
        leaver.join();
    }
}
