package dev.gatehouse.gateway.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gatehouse.gateway.telemetry.CumulativeBuckets;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * One table's lookup cache on this replica (a Caffeine cache keyed by the row's cache key), kept honest by
 * {@link StoreChanges}: an entry is answered only while the change listener is connected and for at most the
 * configured time-to-live, counted from before the lookup that filled it; a change notification or a write through
 * this replica removes it at once. A lookup that raced with a removal (the epoch moved while it read PostgreSQL) is
 * not kept, so a removal is never undone by a lookup that read the row before the change.
 *
 * <p>Every lookup is timed in {@value #TIMER} (tags {@code table}, {@code source} = {@code cache|store}), with
 * cumulative buckets from 1 µs to 5 s ({@link CumulativeBuckets#MICROS}), so the load harness can report the lookup
 * step's percentiles from two reads.
 *
 * @param <V> the looked-up value, including "not there" when that is worth keeping
 */
final class StoreCache<V> {

    /** Entries kept per table; beyond it the least used go first (they are read again from PostgreSQL). */
    private static final long MAX_ENTRIES = 100_000;

    /** The lookup timer. */
    static final String TIMER = "gatehouse.store.lookup";

    /**
     * What a lookup read, and for how long it may be answered from the cache.
     *
     * @param maxAgeNanos at most this long (further capped by the time-to-live); 0 or less: not kept
     */
    record Loaded<V>(V value, long maxAgeNanos) {
        static <V> Loaded<V> keep(V value) {
            return new Loaded<>(value, Long.MAX_VALUE);
        }

        static <V> Loaded<V> dontKeep(V value) {
            return new Loaded<>(value, 0);
        }
    }

    private record Entry<V>(V value, long expiresAtNanos) {
    }

    private final StoreChanges changes;
    private final Cache<String, Entry<V>> entries;
    private final AtomicLong epoch = new AtomicLong();
    private final Timer cached;
    private final Timer read;

    StoreCache(StoreChanges changes, String table, MeterRegistry meters) {
        this.changes = changes;
        this.cached = timer(meters, table, "cache");
        this.read = timer(meters, table, "store");
        this.entries = Caffeine.newBuilder().maximumSize(MAX_ENTRIES)
                .expireAfterWrite(Math.max(1, changes.ttlNanos()), TimeUnit.NANOSECONDS)
                .ticker(changes::now).build();
    }

    /**
     * The cached value for {@code key}, or what {@code lookup} reads now (kept when the listener is connected).
     *
     * @throws StoreUnavailableException from the lookup; nothing is kept then
     */
    V get(String key, Supplier<Loaded<V>> lookup) {
        long began = System.nanoTime();
        boolean usable = changes.usable();
        long start = changes.now();
        if (usable) {
            Entry<V> entry = entries.getIfPresent(key);
            if (entry != null && start - entry.expiresAtNanos() < 0) {
                cached.record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
                return entry.value();
            }
        }
        try {
            return load(key, lookup, usable, start);
        } finally {
            read.record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
        }
    }

    private V load(String key, Supplier<Loaded<V>> lookup, boolean usable, long start) {
        long seen = epoch.get();
        Loaded<V> loaded = lookup.get();
        if (usable && loaded.maxAgeNanos() > 0) {
            long age = Math.min(loaded.maxAgeNanos(), changes.ttlNanos());
            entries.put(key, new Entry<>(loaded.value(), start + age));
            if (epoch.get() != seen) { // a removal ran while PostgreSQL was read: the row may be older than it
                entries.invalidate(key);
            }
        }
        return loaded.value();
    }

    private static Timer timer(MeterRegistry meters, String table, String source) {
        return CumulativeBuckets.on(Timer.builder(TIMER)
                .description("one session, settings or registration lookup of the PIP")
                .tag("table", table).tag("source", source), CumulativeBuckets.MICROS).register(meters);
    }

    /** Forgets the entry of one key (its row changed). */
    void invalidate(String key) {
        epoch.incrementAndGet();
        entries.invalidate(key);
    }

    /** Forgets every entry (the table changed as a whole, or notifications may have been missed). */
    void invalidateAll() {
        epoch.incrementAndGet();
        entries.invalidateAll();
    }
}
