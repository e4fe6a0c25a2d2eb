package dev.gatehouse.gateway.policy.embedded;

import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.telemetry.CumulativeBuckets;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time a request thread spends inside one Wasm evaluation (with reading the result text the engine returns,
 * a few µs), per entry point: timer {@value #TIMER}, tag {@code entrypoint} (the last segment of its path:
 * {@code decision}, {@code visible_tools}, ...). It is the engine's own cost of a decision, told apart from the
 * gateway's around it and from time spent waiting for a core, so the load harness and JMH can be compared on the same
 * inputs (bench/notes.md). Its buckets ({@link CumulativeBuckets}) give the load harness percentiles, so a few
 * outliers (a safepoint, a page fault) are told apart from a slower typical evaluation. Costs two reads of the
 * thread's CPU clock per evaluation (about 0.6 µs each here) and no allocation; a memo-answered call evaluates nothing
 * and records nothing. Where the JVM cannot read a thread's CPU time, nothing is recorded.
 */
final class EngineCpu {

    /** Timer of the CPU time per Wasm evaluation, tagged {@code entrypoint}. */
    static final String TIMER = "gatehouse.pdp.evaluation.cpu";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final boolean supported = THREADS.isCurrentThreadCpuTimeSupported();
    private final Map<Entrypoint, Timer> timers = new EnumMap<>(Entrypoint.class);

    EngineCpu(MeterRegistry meters) {
        for (Entrypoint entrypoint : Entrypoint.values()) {
            String path = entrypoint.path();
            timers.put(entrypoint, CumulativeBuckets.on(Timer.builder(TIMER)
                    .description("CPU time of the request thread inside one Wasm evaluation")
                    .tag("entrypoint", path.substring(path.lastIndexOf('/') + 1)), CumulativeBuckets.MICROS)
                    .register(meters));
        }
    }

    /** The current thread's CPU time in ns, to pass to {@link #stop}; -1 when it cannot be read. */
    long start() {
        return supported ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    /** Records the current thread's CPU time since {@code start} for one evaluation of {@code entrypoint}. */
    void stop(Entrypoint entrypoint, long start) {
        if (start >= 0) {
            timers.get(entrypoint).record(THREADS.getCurrentThreadCpuTime() - start, TimeUnit.NANOSECONDS);
        }
    }
}
