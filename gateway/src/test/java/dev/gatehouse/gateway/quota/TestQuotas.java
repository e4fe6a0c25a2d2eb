package dev.gatehouse.gateway.quota;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real quota enforcement for tests outside this package, on a time of the test's own: the shared budgets are
 * in-memory Bucket4j buckets (the PostgreSQL ones are QuotaPostgresTest's), and a call that waits for a token moves
 * that time instead of sleeping, so a test never waits and a bucket refills exactly as fast as the calls wait.
 */
public final class TestQuotas {

    /** Monotonic nanoseconds that only a waiting call, or the test, moves. */
    public final AtomicLong ticks = new AtomicLong();
    public final QuotaProperties properties = new QuotaProperties();
    public final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    /** A quota step over the budgets of this test time, with the default {@code gatehouse.quotas.*}. */
    public QuotaStep step() {
        QuotaTime time = new QuotaTime(clock, ticks::get);
        QuotaMetrics metrics = new QuotaMetrics(meters);
        QuotaLimiter limiter = new QuotaLimiter(new LocalBudgets(time, 1.0),
                new LocalBudgets(time, properties.getDegradedShare()), properties, ticks::get, clock);
        return new QuotaStep(limiter, metrics, properties, ticks::addAndGet);
    }

    /** The fair share of {@code gatehouse.quotas.*} as set on {@link #properties}. */
    public FairShare fairShare() {
        return new FairShare(properties, new QuotaMetrics(meters));
    }
}
