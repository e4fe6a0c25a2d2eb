package dev.gatehouse.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.CallerFacts;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Each caller's fair share of the gateway (docs/domain.md §10): at most {@code in-flight} calls at once and
 * {@code queued} waiting; the excess is refused {@code rate_limited} with a retry time, and another caller is never
 * held up by it.
 */
class FairShareTest {

    private static CallerFacts agent(String id) {
        return new CallerFacts("outside_agent", id, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of("full-access"), new CallerFacts.Settings(false, false, false, true, false),
                Optional.empty());
    }

    private static FairShare share(int inFlight, int queued, Duration maxWait, TestQuotas quotas) {
        quotas.properties.setInFlight(inFlight);
        quotas.properties.setQueued(queued);
        quotas.properties.setMaxWait(maxWait);
        return quotas.fairShare();
    }

    @Test
    void aCallerBeyondItsPlacesIsRefusedAndOthersAreNot() {
        TestQuotas quotas = new TestQuotas();
        FairShare share = share(1, 0, Duration.ofMillis(250), quotas);
        try (FairShare.Place first = share.enter(agent("a1"))) {
            assertTrue(first.refusal().isEmpty());
            FairShare.Place second = share.enter(agent("a1"));
            assertEquals(250, second.refusal().orElseThrow().retryAfterMs());
            try (FairShare.Place other = share.enter(agent("a2"))) {
                assertTrue(other.refusal().isEmpty(), "another caller has places of its own");
            }
        }
        try (FairShare.Place again = share.enter(agent("a1"))) {
            assertTrue(again.refusal().isEmpty(), "a closed place is free again");
        }
        assertEquals(1.0, quotas.meters.get(QuotaMetrics.OVER_SHARE).counter().count());
    }

    /** A queued call gets the place when it comes free; one beyond the queue is refused at once, without waiting. */
    @Test
    void aQueuedCallWaitsForThePlaceAndTheQueueIsBounded() throws Exception {
        FairShare share = share(1, 1, Duration.ofSeconds(10), new TestQuotas());
        FairShare.Place first = share.enter(agent("a1"));
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CompletableFuture<FairShare.Place> queued = CompletableFuture.supplyAsync(() -> {
            waiter.set(Thread.currentThread());
            return share.enter(agent("a1"));
        });
        while (waiter.get() == null || waiter.get().getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        FairShare.Place beyond = share.enter(agent("a1"));
        assertTrue(beyond.refusal().isPresent(), "a second waiter is beyond the queue");
        first.close();
        try (FairShare.Place granted = queued.get()) {
            assertTrue(granted.refusal().isEmpty());
        }
    }

    /** A call whose wait runs out is refused; a zero wait refuses at once. */
    @Test
    void aWaitThatRunsOutIsRefused() {
        FairShare share = share(1, 4, Duration.ZERO, new TestQuotas());
        try (FairShare.Place first = share.enter(agent("a1"))) {
            assertEquals(1, share.enter(agent("a1")).refusal().orElseThrow().retryAfterMs());
        }
    }
}
