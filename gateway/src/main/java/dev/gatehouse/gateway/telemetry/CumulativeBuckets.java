package dev.gatehouse.gateway.telemetry;

import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Histogram buckets for a timer whose percentiles the load harness reads from two scrapes: fixed upper bounds,
 * counted from start instead of Micrometer's default two-minute window, so the difference of two reads is exactly
 * the series between them. Recording one value finds its bucket and adds one; it allocates nothing.
 */
public final class CumulativeBuckets {

    /** Upper bounds in µs about 1.5× apart from 1 µs to 5 s: fine enough to place a p50 below 100 µs. */
    public static final long[] MICROS = {1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1_000,
        1_500, 2_000, 3_000, 5_000, 7_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 5_000_000};

    private CumulativeBuckets() {
    }

    /**
     * {@code timer} with cumulative buckets at {@code micros} (upper bounds, µs, ascending).
     *
     * @return the same builder, for chaining
     */
    public static Timer.Builder on(Timer.Builder timer, long... micros) {
        Duration[] bounds = new Duration[micros.length];
        for (int i = 0; i < micros.length; i++) {
            bounds[i] = Duration.ofNanos(micros[i] * 1_000);
        }
        // A window longer than any run, and one ring buffer, so nothing ever rotates out of the counts.
        return timer.serviceLevelObjectives(bounds).distributionStatisticExpiry(Duration.ofDays(36_500))
                .distributionStatisticBufferLength(1);
    }
}
