package dev.gatehouse.gateway.telemetry;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Times and traces the PEP's steps ({@code gate.GateStep}, run by {@code gate.GatePipeline} for tools/call, tools/list
 * and notices alike): the timer {@value #TIMER} tagged {@code step} ({@code facts}, {@code arguments},
 * {@code decision}, {@code decision-log}, {@code enforce}, {@code handler}) and a span {@code gate.<step>}.
 * Complements the transport's per-step timer {@code gatehouse.transport.step}.
 */
@Singleton
public class GateSteps {

    public static final String TIMER = "gatehouse.gate.step";

    private final MeterRegistry meters;
    private final Tracing tracing;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

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
            sample.stop(timers.computeIfAbsent(step, name -> Timer.builder(TIMER)
                    .description("time spent in one step of the PEP for one call").tag("step", name)
                    .register(meters)));
        }
    }
}
