package dev.gatehouse.gateway.telemetry;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.util.function.Supplier;

/**
 * Times and traces the PEP's steps of one call: the timer {@value #TIMER} tagged {@code step} ({@code context},
 * {@code target-shells}, {@code argument-check}, {@code decision}, {@code decision-log}, {@code handler}) and a span {@code gate.<step>}.
 * Complements the transport's per-step timer {@code gatehouse.transport.step}.
 */
@Singleton
public class GateSteps {

    public static final String TIMER = "gatehouse.gate.step";

    private final MeterRegistry meters;
    private final Tracing tracing;

    public GateSteps(MeterRegistry meters, Tracing tracing) {
        this.meters = meters;
        this.tracing = tracing;
    }

    /** Runs one step, timed and in its own span; an exception is timed too and passed on. */
    public <T> T run(String step, Supplier<T> work) {
        Timer.Sample sample = Timer.start(meters);
        try {
            return tracing.inSpan("gate." + step, work);
        } finally {
            sample.stop(Timer.builder(TIMER).description("time spent in one step of the PEP for one call")
                    .tag("step", step).register(meters));
        }
    }
}
