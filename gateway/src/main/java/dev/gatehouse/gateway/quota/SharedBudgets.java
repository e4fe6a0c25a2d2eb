package dev.gatehouse.gateway.quota;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gatehouse.gateway.policy.api.Quota;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.DelayParameters;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import java.time.Duration;

/**
 * The budgets every replica shares: one Bucket4j token bucket per quota, its state a row of {@code quota_bucket}
 * (migration V11) read and written under {@code SELECT … FOR UPDATE}, so two replicas never take the same token.
 * Each bucket is used through Bucket4j's delaying optimization, the local fast path: this replica answers from its
 * own copy of the bucket and writes what it took back after {@code sync-tokens} of the burst or {@code sync-interval},
 * so a call far under its budget does not wait for PostgreSQL; in exchange a replica may admit up to that many
 * tokens more than the bucket holds before it sees the others' calls. A quota whose rate or burst changed (a new
 * policy revision) is a new bucket that starts full; the old row expires.
 */
final class SharedBudgets implements Budgets {

    private final ProxyManager<String> proxies;
    private final QuotaProperties properties;
    /** This replica's copies, per quota; a copy unused for ten minutes is dropped (its row stays until it expires). */
    private final Cache<Quota, BucketProxy> copies = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10)).maximumSize(100_000).build();

    SharedBudgets(ProxyManager<String> proxies, QuotaProperties properties) {
        this.proxies = proxies;
        this.properties = properties;
    }

    /**
     * Takes one token of {@code quota}'s bucket if it has one.
     *
     * @throws RuntimeException when the shared store failed (Bucket4j wraps the driver's exception)
     */
    @Override
    public ConsumptionProbe take(Quota quota) {
        BucketProxy bucket = copies.get(quota, this::bucket);
        // One call at a time per copy: the optimization's local state is read and written as a whole.
        synchronized (bucket) {
            return bucket.tryConsumeAndReturnRemaining(1);
        }
    }

    private BucketProxy bucket(Quota quota) {
        long unsynced = Math.max(1, (long) Math.floor(quota.burst() * properties.getSyncTokens()));
        return proxies.builder()
                .withOptimization(Optimizations.delaying(new DelayParameters(unsynced, properties.getSyncInterval())))
                .build(key(quota), () -> configuration(quota, 1.0));
    }

    /** The row's id: the bucket and its numbers, so a changed budget never inherits another budget's state. */
    static String key(Quota quota) {
        return quota.bucket() + "|" + quota.ratePerMinute() + "/" + quota.burst();
    }

    /** {@code quota}'s bucket, its rate and burst scaled by {@code share} (never below one token). */
    static BucketConfiguration configuration(Quota quota, double share) {
        long burst = Math.max(1, (long) Math.floor(quota.burst() * share));
        long rate = Math.max(1, (long) Math.floor(quota.ratePerMinute() * share));
        return BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(burst).refillGreedy(rate, Duration.ofMinutes(1)).build())
                .build();
    }
}
