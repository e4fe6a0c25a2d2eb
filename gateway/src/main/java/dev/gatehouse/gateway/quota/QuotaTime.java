package dev.gatehouse.gateway.quota;

import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.util.function.LongSupplier;

/**
 * The time every bucket of this replica is measured on: the wall clock read once, when the replica starts, plus the
 * monotonic time that has passed since. Buckets shared in PostgreSQL need one time base on every replica (wall
 * time), but a wall clock can jump: a step back would stop every bucket refilling until the clock caught up (a
 * lockout as long as the jump), a step forward would refill them (more calls than the budget). This time never
 * jumps: a change of the host's clock after start-up changes nothing, and replicas differ only by how far their
 * clocks disagreed when they started (NTP: milliseconds). Bucket4j refills nothing for a time before a bucket's last
 * refill, so a replica whose clock is a little behind another's only refills a little later.
 */
final class QuotaTime implements TimeMeter {

    private final long anchorNanos;
    private final long startTicks;
    private final LongSupplier ticks;

    /**
     * @param wall  read once, for the anchor
     * @param ticks monotonic nanoseconds ({@link System#nanoTime()}); only differences are used
     */
    QuotaTime(Clock wall, LongSupplier ticks) {
        this.anchorNanos = Math.multiplyExact(wall.millis(), 1_000_000L);
        this.startTicks = ticks.getAsLong();
        this.ticks = ticks;
    }

    @Override
    public long currentTimeNanos() {
        return anchorNanos + (ticks.getAsLong() - startTicks);
    }

    /** Wall-clock based: comparable between replicas, as Bucket4j requires of a time for shared buckets. */
    @Override
    public boolean isWallClockBased() {
        return true;
    }
}
