package dev.gatehouse.gateway.quota;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gatehouse.gateway.policy.api.Quota;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;

/**
 * The budgets this replica grants on its own while the shared store does not answer: one in-memory Bucket4j bucket
 * per quota holding {@code degraded-share} of its rate and burst (at least one token), so every caller keeps some
 * budget and nobody gets an unlimited one. They start full when first needed and are kept while in use, so a short
 * outage and the next one draw from the same local buckets.
 */
final class LocalBudgets implements Budgets {

    private final TimeMeter time;
    private final double share;
    private final Cache<Quota, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10)).maximumSize(100_000).build();

    LocalBudgets(TimeMeter time, double share) {
        this.time = time;
        this.share = share;
    }

    /** Takes one token of this replica's share of {@code quota}'s bucket if it has one. */
    @Override
    public ConsumptionProbe take(Quota quota) {
        return buckets.get(quota, q -> Bucket.builder()
                .addLimit(SharedBudgets.configuration(q, share).getBandwidths()[0])
                .withCustomTimePrecision(time).build())
                .tryConsumeAndReturnRemaining(1);
    }
}
