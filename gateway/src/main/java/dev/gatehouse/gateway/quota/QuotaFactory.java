package dev.gatehouse.gateway.quota;

import dev.gatehouse.gateway.store.BoundedDataSource;
import dev.gatehouse.gateway.store.Database;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/** Wires the quota enforcement: one time base, the shared and local budgets, the limiter, the step, the fair share. */
@Factory
class QuotaFactory {

    @Singleton
    QuotaTime quotaTime(Clock clock) {
        return new QuotaTime(clock, System::nanoTime);
    }

    /** Bucket4j's buckets in {@code quota_bucket} (V11); a row is kept until its bucket would be full again. */
    @Singleton
    PostgreSQLSelectForUpdateBasedProxyManager<String> buckets(Database database, QuotaTime time) {
        return Bucket4jPostgreSQL.selectForUpdateBasedBuilder(new BoundedDataSource(database))
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("quota_bucket").idColumn("id").stateColumn("state").expiresAtColumn("expires_at")
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                        Duration.ofMinutes(1)))
                .clientClock(time)
                .build();
    }

    @Singleton
    QuotaMetrics quotaMetrics(MeterRegistry meters) {
        return new QuotaMetrics(meters);
    }

    @Singleton
    QuotaLimiter quotaLimiter(PostgreSQLSelectForUpdateBasedProxyManager<String> buckets, QuotaTime time,
            QuotaProperties properties, Clock clock, QuotaMetrics metrics) {
        QuotaLimiter limiter = new QuotaLimiter(new SharedBudgets(buckets, properties),
                new LocalBudgets(time, properties.getDegradedShare()), properties, System::nanoTime, clock);
        metrics.watch(limiter);
        return limiter;
    }

    @Singleton
    QuotaStep quotaStep(QuotaLimiter limiter, QuotaMetrics metrics, QuotaProperties properties) {
        return new QuotaStep(limiter, metrics, properties, Pause.PARK);
    }

    @Singleton
    FairShare fairShare(QuotaProperties properties, QuotaMetrics metrics) {
        return new FairShare(properties, metrics);
    }
}
