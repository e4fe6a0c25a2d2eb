package dev.gatehouse.gateway.quota;

import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.store.RequestTimeSpentException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The PEP's quota step ({@code gate.GateStep#QUOTA}, run by {@code gate.GatePipeline}; docs/design.md "Quotas";
 * docs/domain.md §10). Its place in the tools/call steps: after the {@code decision} step, before the
 * {@code decision-log} step, so the record names what it did; a call it refuses never reaches the {@code enforce}
 * and {@code handler} steps. tools/list and notices never come here.
 *
 * <p>Contract of {@link #admit}: given the PDP's outcome for one tools/call,
 * <ul>
 * <li>anything but a decided allow that carries a {@code quota} obligation (a denial, a fault, an allow without a
 *     quota, which the gate then refuses {@code policy_unavailable}) is {@link Admission.NotCharged}: nothing is
 *     charged, so denials are never charged against any budget (tools/list never comes here);</li>
 * <li>an allow with a quota takes one token of its bucket ({@link QuotaLimiter}): {@link Admission.Admitted} when
 *     there is one; when the next token is due within {@code max-wait} the call waits for it and takes it then;
 *     otherwise, or when it still gets none, the call is {@link Admission.OverBudget} with {@code retryAfterMs}
 *     (when a token is due, counted from the answer). A refused call is answered only after {@code max-wait}, or
 *     when its token would have come if sooner, so a caller that resends at once is paced instead of spinning;</li>
 * <li>a request whose store time was spent before its bucket was read is {@link Admission.TimeSpent}: nothing is
 *     charged and the gate answers the call {@code unavailable};</li>
 * <li>it never throws: a shared store that fails is the limiter's local budget, never a refusal.</li>
 * </ul>
 * Every outcome is counted per bucket class ({@link QuotaMetrics}).
 */
public class QuotaStep {

    private final QuotaLimiter limiter;
    private final QuotaMetrics metrics;
    private final long maxWaitNanos;
    private final Pause pause;

    QuotaStep(QuotaLimiter limiter, QuotaMetrics metrics, QuotaProperties properties, Pause pause) {
        this.limiter = limiter;
        this.metrics = metrics;
        this.maxWaitNanos = properties.getMaxWait().toNanos();
        this.pause = pause;
    }

    /** See the class comment. */
    public Admission admit(PolicyOutcome<Decision> outcome) {
        Optional<Quota> charged = quotaOf(outcome);
        if (charged.isEmpty()) {
            return new Admission.NotCharged();
        }
        Quota quota = charged.get();
        try {
            return charge(quota);
        } catch (RequestTimeSpentException e) {
            metrics.timeSpent(quota.bucketClass());
            return new Admission.TimeSpent(quota);
        }
    }

    private Admission charge(Quota quota) {
        QuotaLimiter.Taken taken = limiter.take(quota);
        if (!taken.admitted() && taken.nanosToWait() <= maxWaitNanos) {
            pause.nanos(taken.nanosToWait());
            taken = limiter.take(quota);
        } else if (!taken.admitted()) {
            pause.nanos(maxWaitNanos);
            taken = new QuotaLimiter.Taken(false, taken.nanosToWait() - maxWaitNanos, taken.budget());
        }
        Admission admission = taken.admitted() ? new Admission.Admitted(quota, taken.budget())
                : new Admission.OverBudget(quota, taken.budget(), retryAfterMs(taken.nanosToWait()));
        metrics.charged(quota.bucketClass(), admission);
        return admission;
    }

    private static Optional<Quota> quotaOf(PolicyOutcome<Decision> outcome) {
        if (outcome instanceof PolicyOutcome.Decided<Decision> decided && decided.value() != null
                && decided.value().allow()) {
            return decided.value().obligations().quota();
        }
        return Optional.empty();
    }

    /** Whole milliseconds, rounded up and at least 1: a client that waits that long finds a token. */
    static long retryAfterMs(long nanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999));
    }
}
