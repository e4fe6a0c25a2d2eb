package dev.gatehouse.gateway.quota;

import dev.gatehouse.gateway.telemetry.MeterTable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Quota meters (README "Operating"):
 * <ul>
 * <li>{@value #CHARGES} (counter) tagged {@code class} (the bucket class of the quota data, a bounded set),
 *     {@code outcome} ({@code admitted|refused}) and {@code budget} ({@code shared|local}): one per charged
 *     tools/call;</li>
 * <li>{@value #OVER_SHARE} (counter): calls refused because their caller had every place it may hold;</li>
 * <li>{@value #TIME_SPENT} (counter) tagged {@code class}: allowed calls answered {@code unavailable} because the
 *     request's store time was spent before their bucket was read;</li>
 * <li>{@value #LOCAL} (gauge): 1 while the budgets are this replica's local share (the shared store does not
 *     answer), else 0.</li>
 * </ul>
 */
public class QuotaMetrics {

    public static final String CHARGES = "gatehouse.quota.charges";
    public static final String OVER_SHARE = "gatehouse.quota.over_share";
    public static final String LOCAL = "gatehouse.quota.local_budgets";
    public static final String TIME_SPENT = "gatehouse.quota.time_spent";

    private final MeterRegistry meters;
    private final MeterTable<Counter> charges;
    private final MeterTable<Counter> timeSpent;
    private final Counter overShare;

    QuotaMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.charges = new MeterTable<>(tags -> Counter.builder(CHARGES)
                .description("charged tools/calls by bucket class, outcome and budget")
                .tag("class", tags[0]).tag("outcome", tags[1]).tag("budget", tags[2]).register(meters));
        this.timeSpent = new MeterTable<>(tags -> Counter.builder(TIME_SPENT)
                .description("allowed tools/calls answered unavailable because the request's store time was spent"
                        + " before their bucket was read").tag("class", tags[0]).register(meters));
        this.overShare = Counter.builder(OVER_SHARE)
                .description("calls refused because their caller had every place it may hold").register(meters);
    }

    /** Registers the gauge of which budgets answer. */
    void watch(QuotaLimiter limiter) {
        Gauge.builder(LOCAL, limiter, l -> l.status().budgets() == Admission.Budget.LOCAL ? 1 : 0)
                .description("1 while quotas are this replica's local share because the shared store does not answer")
                .register(meters);
    }

    void charged(String bucketClass, Admission admission) {
        Admission.Budget budget = admission instanceof Admission.Admitted admitted ? admitted.budget()
                : ((Admission.OverBudget) admission).budget();
        charges.get(bucketClass, admission instanceof Admission.Admitted ? "admitted" : "refused", budget.wire())
                .increment();
    }

    void timeSpent(String bucketClass) {
        timeSpent.get(bucketClass).increment();
    }

    void overShare() {
        overShare.increment();
    }
}
