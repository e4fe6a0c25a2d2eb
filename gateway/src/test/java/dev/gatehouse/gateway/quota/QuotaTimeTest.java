package dev.gatehouse.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Clock jumps (docs/domain.md §10): a bucket's time is the wall clock read once plus monotonic time since, so the
 * host clock stepping back or forward after start-up neither locks a bucket out nor refills it.
 */
class QuotaTimeTest {

    @Test
    void aJumpOfTheWallClockAfterStartUpChangesNothing() {
        AtomicReference<Instant> wall = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return wall.get();
            }
        };
        AtomicLong ticks = new AtomicLong(123_456_789L);
        QuotaTime time = new QuotaTime(clock, ticks::get);
        long start = time.currentTimeNanos();
        assertEquals(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli() * 1_000_000L, start);

        for (Duration jump : new Duration[] {Duration.ofHours(-1), Duration.ofDays(2), Duration.ofMillis(-5)}) {
            wall.set(wall.get().plus(jump));
            assertEquals(start, time.currentTimeNanos(), "a wall-clock jump of " + jump + " moved the bucket time");
        }
        ticks.addAndGet(Duration.ofSeconds(3).toNanos());
        assertEquals(start + Duration.ofSeconds(3).toNanos(), time.currentTimeNanos(), "monotonic time moves it");
    }
}
