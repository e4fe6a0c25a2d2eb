package dev.gatehouse.gateway.telemetry;

import dev.gatehouse.gateway.policy.api.Decision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

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

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final MeterRegistry meters;

    public DecisionMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    /**
     * Counts one decision.
     *
     * @param method  {@code tools/call} or {@code tools/list}
     * @param tool    the served tool's name, or {@code unknown}, or {@code -} for a listing
     * @param reasons the reason codes shown to the caller (empty for an allow)
     */
    public void decided(String method, String tool, Outcome outcome, List<Decision.Reason> reasons) {
        Counter.builder(DECISIONS).description("decisions by method, tool and outcome")
                .tag("method", method).tag("tool", tool).tag("outcome", outcome.tag()).register(meters).increment();
        for (Decision.Reason reason : reasons) {
            Counter.builder(REASONS).description("reason codes of denials and faults")
                    .tag("tool", tool).tag("reason", reason.code()).register(meters).increment();
        }
    }

    /** Records how long the PDP took to answer (or to fail). */
    public void latency(String method, long nanos) {
        Timer.builder(LATENCY).description("time for the PDP to answer one decision, queue wait included")
                .tag("method", method).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(meters).record(Duration.ofNanos(nanos));
    }
}
