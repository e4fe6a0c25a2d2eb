package dev.gatehouse.gateway.quota;

import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import io.micronaut.context.annotation.Context;
import jakarta.annotation.PreDestroy;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the rows of buckets that would be full again (Bucket4j's {@code removeExpired}), once a minute on a thread
 * of its own, at most 1,000 a time: a bucket nobody used for a while is the same as no row, so the table holds only
 * the buckets in use. Every replica does it; a failure (the store is down) is tried again at the next round.
 */
@Context
class ExpiredBuckets {

    private static final Logger LOG = LoggerFactory.getLogger(ExpiredBuckets.class);

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread t = new Thread(runnable, "gatehouse-quota-expiry");
        t.setDaemon(true);
        return t;
    });

    ExpiredBuckets(PostgreSQLSelectForUpdateBasedProxyManager<String> buckets) {
        thread.scheduleWithFixedDelay(() -> {
            try {
                buckets.removeExpired(1_000);
            } catch (RuntimeException e) {
                LOG.debug("quota buckets: expired rows not removed this round ({})", e.getClass().getSimpleName());
            }
        }, 1, 1, TimeUnit.MINUTES);
    }

    @PreDestroy
    void stop() {
        thread.shutdownNow();
    }
}
