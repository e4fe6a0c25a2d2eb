package dev.gatehouse.gateway.telemetry;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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

    private final Tracing tracing;
    private final MeterTable<Timer> timers;
    /** Span names by step, so a call does not concatenate one. */
    private final Map<String, String> spans = new ConcurrentHashMap<>();

    public GateSteps(MeterRegistry meters, Tracing tracing) {
        this.tracing = tracing;
        this.timers = new MeterTable<>(tags -> Timer.builder(TIMER)
                .description("time spent in one step of the PEP for one call").tag("step", tags[0])
                .register(meters));
    }

    /** Runs one step, timed and in its own span; an exception is timed too and passed on. */
    public <T> T run(String step, Supplier<T> work) {
        long start = System.nanoTime();
        try {
            return tracing.inSpan(spans.computeIfAbsent(step, name -> "gate." + name), work);
        } finally {
            timers.get(step).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }
}
