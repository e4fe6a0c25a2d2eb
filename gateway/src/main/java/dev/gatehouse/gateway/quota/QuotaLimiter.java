package dev.gatehouse.gateway.quota;

import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.quota.Admission.Budget;
import dev.gatehouse.gateway.store.RequestTimeSpentException;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one token of a quota's bucket: from the budget shared by every replica ({@link SharedBudgets}), or, while
 * the shared store does not answer, from this replica's conservative share of it ({@link LocalBudgets}). A store
 * failure (down, stalled past the request's store budget, refused) switches every bucket to its local share for
 * {@code retry-store-after}; the first call after that tries the store again and switches back when it answers. So
 * a store outage never lets calls through unlimited and never refuses everyone, and only one call per interval
 * waits for a store that does not answer. {@link #status()} says which budgets answer, for {@code /health}.
 *
 * <p>A request whose store time was spent before it reached its bucket ({@link RequestTimeSpentException}) is not a
 * store failure: switching every bucket to its local share for it would let each such request through uncounted by
 * the other replicas. That call takes nothing and the limiter stays where it was.
 */
public class QuotaLimiter {

    private static final Logger LOG = LoggerFactory.getLogger(QuotaLimiter.class);

    /** One attempt to take a token: taken, or how long until the bucket has one (ns), and which budget said so. */
    record Taken(boolean admitted, long nanosToWait, Budget budget) {
    }

    /** Which budgets answer now, since when (while local) and why. */
    public record Status(Budget budgets, Optional<Instant> since, Optional<String> detail) {
    }

    private final Budgets shared;
    private final Budgets local;
    private final long retryNanos;
    private final LongSupplier ticks;
    private final Clock clock;
    /** While local: the tick after which the store is tried again; the status shown. Guarded by this. */
    private long retryAt;
    private Status status = new Status(Budget.SHARED, Optional.empty(), Optional.empty());

    QuotaLimiter(Budgets shared, Budgets local, QuotaProperties properties, LongSupplier ticks,
            Clock clock) {
        this.shared = shared;
        this.local = local;
        this.retryNanos = properties.getRetryStoreAfter().toNanos();
        this.ticks = ticks;
        this.clock = clock;
    }

    /**
     * Takes one token of {@code quota}'s bucket if it has one; never throws for a store failure.
     *
     * @throws RequestTimeSpentException when the request had no store time left to read its shared bucket: nothing
     *         was taken, and the budgets stay shared
     */
    Taken take(Quota quota) {
        if (!tryStore()) {
            return taken(local.take(quota), Budget.LOCAL);
        }
        try {
            Taken taken = taken(shared.take(quota), Budget.SHARED);
            recovered();
            return taken;
        } catch (RuntimeException e) {
            Optional<RequestTimeSpentException> spent = RequestTimeSpentException.in(e);
            if (spent.isPresent()) {
                throw spent.get();
            }
            failed(e);
            return taken(local.take(quota), Budget.LOCAL);
        }
    }

    /** Which budgets answer now. */
    public synchronized Status status() {
        return status;
    }

    private synchronized boolean tryStore() {
        return status.budgets() == Budget.SHARED || ticks.getAsLong() - retryAt >= 0;
    }

    private synchronized void recovered() {
        if (status.budgets() == Budget.LOCAL) {
            LOG.warn("quotas: the shared store answers again; budgets are shared by every replica again");
            status = new Status(Budget.SHARED, Optional.empty(), Optional.empty());
        }
    }

    private synchronized void failed(RuntimeException e) {
        retryAt = ticks.getAsLong() + retryNanos;
        if (status.budgets() == Budget.SHARED) {
            LOG.warn("quotas: the shared store did not answer ({}); each bucket grants this replica's local share"
                    + " until it does", e.getClass().getSimpleName());
            status = new Status(Budget.LOCAL, Optional.of(clock.instant()), Optional.of("the shared store did not"
                    + " answer; each bucket grants this replica's local share (gatehouse.quotas.degraded-share)"));
        }
    }

    private static Taken taken(ConsumptionProbe probe, Budget budget) {
        return new Taken(probe.isConsumed(), probe.isConsumed() ? 0 : probe.getNanosToWaitForRefill(), budget);
    }
}
