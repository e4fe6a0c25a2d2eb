package dev.gatehouse.gateway.quota;

import dev.gatehouse.facts.CallerFacts;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Each caller's fair share of the gateway's own capacity (docs/domain.md §10): at most {@code in-flight} calls of one
 * caller in the PDP and the handlers at once, and at most {@code queued} more waiting for a place, each at most {@code
 * max-wait}. A call beyond that, or one whose wait ran out, is {@link Admission.OverShare}, answered {@code
 * rate_limited} (never {@code policy_unavailable}, never a denial), and is neither decided nor charged. So one agent
 * holds at most {@code in-flight} of the PDP instances and {@code in-flight + queued} request threads, however many
 * calls it sends at once, and its excess costs no policy evaluation.
 *
 * <p>Its place among the gate's steps, for tools/call and tools/list alike: after {@code facts} (the caller is known
 * from trusted facts: its kind and logical agent id), before {@code arguments}; the {@link Place} is held until the
 * handler has returned.
 * Places are per caller and replica; nothing is kept for a caller with no call in flight or waiting.
 */
public class FairShare {

    /** A place in flight, or the refusal; closing a granted place frees it for the caller's next call. */
    public interface Place extends AutoCloseable {

        /** Empty when granted, else the refusal. */
        Optional<Admission.OverShare> refusal();

        @Override
        void close();
    }

    private final int inFlight;
    private final int queued;
    private final long maxWaitNanos;
    private final QuotaMetrics metrics;
    private final Map<String, Share> shares = new ConcurrentHashMap<>();

    FairShare(QuotaProperties properties, QuotaMetrics metrics) {
        this.inFlight = properties.getInFlight();
        this.queued = properties.getQueued();
        this.maxWaitNanos = properties.getMaxWait().toNanos();
        this.metrics = metrics;
    }

    /** One caller's places: the semaphore of its in-flight places and how many calls hold or wait for one. */
    private final class Share {
        final Semaphore places = new Semaphore(inFlight, true);
        int users;
    }

    /**
     * Waits for one of the caller's in-flight places: at once when one is free, at most {@code max-wait} when the
     * caller has fewer than {@code queued} calls waiting, else not at all.
     *
     * @return the place (close it when the call is done), or the refusal; an interrupt while waiting refuses
     */
    public Place enter(CallerFacts caller) {
        String key = caller.kind() + "/" + caller.logicalAgentId();
        int[] users = new int[1];
        Share share = shares.compute(key, (k, s) -> {
            Share joined = s == null ? new Share() : s;
            users[0] = ++joined.users;
            return joined;
        });
        boolean granted = false;
        try {
            granted = share.places.tryAcquire()
                    || users[0] <= inFlight + queued && share.places.tryAcquire(maxWaitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!granted) {
            leave(key);
            metrics.overShare();
            Admission.OverShare refusal = new Admission.OverShare(QuotaStep.retryAfterMs(maxWaitNanos));
            return new Place() {
                @Override
                public Optional<Admission.OverShare> refusal() {
                    return Optional.of(refusal);
                }

                @Override
                public void close() {
                }
            };
        }
        return new Place() {
            private boolean closed;

            @Override
            public Optional<Admission.OverShare> refusal() {
                return Optional.empty();
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    share.places.release();
                    leave(key);
                }
            }
        };
    }

    private void leave(String key) {
        shares.computeIfPresent(key, (k, s) -> --s.users == 0 ? null : s);
    }
}
