package dev.gatehouse.gateway.telemetry;

import dev.gatehouse.gateway.policy.api.Decision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Decision meters, recorded by the PEP once per decision:
 * <ul>
 * <li>{@value #DECISIONS} (counter) tagged {@code method} ({@code tools/call|tools/list}), {@code tool} (a served
 *     tool's name, {@code unknown} for any other name, so callers cannot grow the series, and {@code -} for
 *     tools/list) and {@code outcome} ({@code allow|deny|unavailable|rate_limited});</li>
 * <li>{@value #REASONS} (counter) tagged {@code tool} and {@code reason}: one per reason code of a denial or fault;</li>
 * <li>{@value #LATENCY} (timer with a percentile histogram) tagged {@code method}: the PDP's answer time, queue wait
 *     included, in seconds on the Prometheus side.</li>
 * </ul>
 */
@Singleton
public class DecisionMetrics {

    public static final String DECISIONS = "gatehouse.decisions";
    public static final String REASONS = "gatehouse.decision.reasons";
    public static final String LATENCY = "gatehouse.decision.latency";

    /** The outcome of one decision as the caller saw it. */
    public enum Outcome {
        ALLOW, DENY, UNAVAILABLE, RATE_LIMITED;

        final String tag = name().toLowerCase(Locale.ROOT);
    }

    private final MeterTable<Counter> decisions;
    private final MeterTable<Counter> reasons;
    private final MeterTable<Timer> latencies;

    public DecisionMetrics(MeterRegistry meters) {
        this.decisions = new MeterTable<>(tags -> Counter.builder(DECISIONS)
                .description("decisions by method, tool and outcome")
                .tag("method", tags[0]).tag("tool", tags[1]).tag("outcome", tags[2]).register(meters));
        this.reasons = new MeterTable<>(tags -> Counter.builder(REASONS)
                .description("reason codes of denials and faults")
                .tag("tool", tags[0]).tag("reason", tags[1]).register(meters));
        this.latencies = new MeterTable<>(tags -> Timer.builder(LATENCY)
                .description("time for the PDP to answer one decision, queue wait included")
                .tag("method", tags[0]).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(meters));
    }

    /**
     * Counts one decision.
     *
     * @param method  {@code tools/call} or {@code tools/list}
     * @param tool    the served tool's name, or {@code unknown}, or {@code -} for a listing
     * @param reasons the reason codes shown to the caller (empty for an allow)
     */
    public void decided(String method, String tool, Outcome outcome, List<Decision.Reason> reasons) {
        decisions.get(method, tool, outcome.tag).increment();
        for (Decision.Reason reason : reasons) {
            this.reasons.get(tool, reason.code()).increment();
        }
    }

    /** Records how long the PDP took to answer (or to fail). */
    public void latency(String method, long nanos) {
        latencies.get(method).record(nanos, TimeUnit.NANOSECONDS);
    }
}
