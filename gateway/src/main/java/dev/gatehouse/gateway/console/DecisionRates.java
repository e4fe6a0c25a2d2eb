package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.telemetry.DecisionMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Decisions per minute by outcome ({@code allow}, {@code deny}, {@code unavailable}) on this replica, read from the
 * counter the PEP already keeps ({@value DecisionMetrics#DECISIONS}): the counter's totals are sampled every 10 s and
 * the rate is the growth over the last minute (or since the first sample, scaled, within the first minute).
 */
@Singleton
public class DecisionRates {

    /** The outcomes, in the order shown. */
    public static final List<String> OUTCOMES = List.of("allow", "deny", "unavailable");

    private static final long WINDOW_NANOS = Duration.ofMinutes(1).toNanos();

    private record Sample(long atNanos, Map<String, Double> totals) {
    }

    private final MeterRegistry meters;
    private final LongSupplier clock;
    private final Deque<Sample> samples = new ArrayDeque<>();

    public DecisionRates(MeterRegistry meters) {
        this(meters, System::nanoTime);
    }

    DecisionRates(MeterRegistry meters, LongSupplier clock) {
        this.meters = meters;
        this.clock = clock;
    }

    @Scheduled(fixedRate = "10s")
    synchronized void sample() {
        long now = clock.getAsLong();
        samples.addLast(new Sample(now, totals()));
        while (samples.size() > 1 && now - samples.peekFirst().atNanos() > WINDOW_NANOS + 15_000_000_000L) {
            samples.removeFirst();
        }
    }

    /** Decisions per minute by outcome; zero for each until a first sample is 10 s old. */
    public synchronized Map<String, Long> perMinute() {
        long now = clock.getAsLong();
        Map<String, Double> current = totals();
        Sample base = samples.stream().filter(s -> now - s.atNanos() <= WINDOW_NANOS).findFirst()
                .orElse(samples.peekLast());
        Map<String, Long> rates = new LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            double growth = base == null ? 0 : current.get(outcome) - base.totals().getOrDefault(outcome, 0.0);
            long elapsed = base == null ? 0 : now - base.atNanos();
            rates.put(outcome, elapsed < 10_000_000_000L ? 0 : Math.round(growth * WINDOW_NANOS / elapsed));
        }
        return rates;
    }

    private Map<String, Double> totals() {
        Map<String, Double> totals = new LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            totals.put(outcome, meters.find(DecisionMetrics.DECISIONS).tag("outcome", outcome).counters().stream()
                    .mapToDouble(Counter::count).sum());
        }
        return totals;
    }
}
