package dev.gatehouse.gateway.quota;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/**
 * How the PEP enforces quotas ({@code gatehouse.quotas.*}; README "Quotas"). The budgets themselves are policy data
 * (policies/gatehouse/quotas/data.json); these say how the gateway holds to them.
 * <ul>
 * <li>{@code max-wait} (default 250 ms, 0 to 10 s): the longest a call waits for a token of its bucket, or for one of
 *     its caller's in-flight places; past it the call is refused {@code rate_limited}. A call refused for its budget
 *     is answered when that wait is over, not at once, so a caller that resends at once cannot spin;</li>
 * <li>{@code in-flight} (default 2, at least 1): calls of one caller (caller kind and logical agent id) in the PDP
 *     and the handlers at once: its share of the PDP instances (one per core) and of the request threads;</li>
 * <li>{@code queued} (default 32, at least 0): calls of one caller waiting for an in-flight place at once; a call
 *     beyond it is refused at once, so one caller holds at most {@code in-flight + queued} request threads;</li>
 * <li>{@code sync-tokens} (default 0.1, from 0 to 1) and {@code sync-interval} (default 100 ms, positive): the
 *     local fast path of a shared budget. A replica answers a bucket from its own copy and tells PostgreSQL what it
 *     took after that fraction of the bucket's burst (at least one token) or that time, whichever comes first; so a
 *     replica may take up to that many tokens more than the bucket holds before it learns of the others' calls;</li>
 * <li>{@code degraded-share} (default 0.5, above 0 and at most 1): while the shared store does not answer, each
 *     replica grants this fraction of every budget on its own (rate and burst, at least one token); set it to
 *     1 / replicas so that all of them together never grant more than the policy says;</li>
 * <li>{@code retry-store-after} (default 1 s): after the shared store failed, how long budgets are local before
 *     the next call tries the store again.</li>
 * </ul>
 */
@ConfigurationProperties("gatehouse.quotas")
public class QuotaProperties {

    private Duration maxWait = Duration.ofMillis(250);
    private int inFlight = 2;
    private int queued = 32;
    private double syncTokens = 0.1;
    private Duration syncInterval = Duration.ofMillis(100);
    private double degradedShare = 0.5;
    private Duration retryStoreAfter = Duration.ofSeconds(1);

    public Duration getMaxWait() {
        return maxWait;
    }

    public void setMaxWait(Duration maxWait) {
        if (maxWait.isNegative() || maxWait.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("gatehouse.quotas.max-wait must be from 0 to 10s");
        }
        this.maxWait = maxWait;
    }

    public int getInFlight() {
        return inFlight;
    }

    public void setInFlight(int inFlight) {
        if (inFlight < 1) {
            throw new IllegalArgumentException("gatehouse.quotas.in-flight must be at least 1");
        }
        this.inFlight = inFlight;
    }

    public int getQueued() {
        return queued;
    }

    public void setQueued(int queued) {
        if (queued < 0) {
            throw new IllegalArgumentException("gatehouse.quotas.queued must be at least 0");
        }
        this.queued = queued;
    }

    public double getSyncTokens() {
        return syncTokens;
    }

    public void setSyncTokens(double syncTokens) {
        if (!(syncTokens >= 0 && syncTokens <= 1)) {
            throw new IllegalArgumentException("gatehouse.quotas.sync-tokens must be from 0 to 1");
        }
        this.syncTokens = syncTokens;
    }

    public Duration getSyncInterval() {
        return syncInterval;
    }

    public void setSyncInterval(Duration syncInterval) {
        // Bucket4j's delaying optimization refuses a zero interval; refused here, at start-up, not on a call.
        if (syncInterval.isNegative() || syncInterval.isZero()) {
            throw new IllegalArgumentException("gatehouse.quotas.sync-interval must be positive");
        }
        this.syncInterval = syncInterval;
    }

    public double getDegradedShare() {
        return degradedShare;
    }

    public void setDegradedShare(double degradedShare) {
        if (!(degradedShare > 0 && degradedShare <= 1)) {
            throw new IllegalArgumentException("gatehouse.quotas.degraded-share must be above 0 and at most 1");
        }
        this.degradedShare = degradedShare;
    }

    public Duration getRetryStoreAfter() {
        return retryStoreAfter;
    }

    public void setRetryStoreAfter(Duration retryStoreAfter) {
        if (retryStoreAfter.isNegative()) {
            throw new IllegalArgumentException("gatehouse.quotas.retry-store-after must not be negative");
        }
        this.retryStoreAfter = retryStoreAfter;
    }
}
