package dev.gatehouse.gateway.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this replica's lookup caches ({@link StoreCache}) in step with the shared store: one thread holds a pool
 * connection that {@code LISTEN}s on {@value #CHANNEL} (filled by the triggers of migration V4 at each commit) and
 * removes the entries each notification names.
 *
 * <h2>The bound</h2>
 * A change committed on any replica applies here at the next call after its notification arrives (normally
 * milliseconds), and in any case at the first call more than {@code gatehouse.database.cache-ttl} (default and at
 * most 1 s) after the commit: every entry expires that long after the lookup that filled it began. The caches are
 * used only while the listener is connected and has confirmed its connection with a round trip within the last
 * time-to-live; when the connection fails, every cache is cleared and bypassed (each lookup asks PostgreSQL) until
 * the listener is listening again, and cleared once more then, because notifications sent in between are lost. A
 * time-to-live of 0 turns the caches off.
 */
@Singleton
public class StoreChanges {

    /** The notification channel of migration V4; payload {@code <table>} or {@code <table>:<cache key>}. */
    static final String CHANNEL = "gatehouse_store_change";

    private static final Logger LOG = LoggerFactory.getLogger(StoreChanges.class);

    private final DataSource dataSource;
    private final long ttlNanos;
    private final int pollMillis;
    private final LongSupplier clock;
    private final MeterRegistry meters;
    private final Map<String, List<StoreCache<?>>> caches = new ConcurrentHashMap<>();
    private final AtomicLong notifications = new AtomicLong();
    private final AtomicLong resets = new AtomicLong();
    private final Thread listener;

    private volatile boolean connected;
    private volatile long confirmedAtNanos;
    private volatile int backendPid;
    private volatile boolean closed;

    @Inject
    public StoreChanges(DataSource dataSource, DatabaseProperties properties, MeterRegistry meters) {
        this(DelegatingDataSource.unwrapDataSource(dataSource), properties.getCacheTtl().toNanos(), System::nanoTime,
                meters);
    }

    /** For tests: {@code clock} (nanoseconds, monotonic) decides entry ages and how recent a confirmation is. */
    StoreChanges(DataSource dataSource, long ttlNanos, LongSupplier clock) {
        this(dataSource, ttlNanos, clock, new SimpleMeterRegistry());
    }

    private StoreChanges(DataSource dataSource, long ttlNanos, LongSupplier clock, MeterRegistry meters) {
        this.dataSource = dataSource;
        this.ttlNanos = ttlNanos;
        this.clock = clock;
        this.meters = meters;
        // A round trip a quarter of the time-to-live, so a lost connection is noticed well within the bound.
        this.pollMillis = (int) Math.max(10, TimeUnit.NANOSECONDS.toMillis(ttlNanos) / 4);
        this.listener = new Thread(this::listen, "gatehouse-store-changes");
        listener.setDaemon(true);
        if (ttlNanos > 0) {
            listener.start();
        }
    }

    /** A new cache for the rows of {@code table}, emptied by that table's notifications. */
    <V> StoreCache<V> cache(String table) {
        StoreCache<V> cache = new StoreCache<>(this, table, meters);
        caches.computeIfAbsent(table, t -> new CopyOnWriteArrayList<>()).add(cache);
        return cache;
    }

    /** Whether cached entries may be answered now: connected, and confirmed within the time-to-live. */
    boolean usable() {
        return connected && now() - confirmedAtNanos < ttlNanos;
    }

    long ttlNanos() {
        return ttlNanos;
    }

    long now() {
        return clock.getAsLong();
    }

    /** Notifications received so far (tests wait on it). */
    long notificationsReceived() {
        return notifications.get();
    }

    /** Times every cache was cleared because the listener connected or lost its connection (tests wait on it). */
    long resets() {
        return resets.get();
    }

    /** The PostgreSQL backend process of the listening connection, 0 when none (tests terminate it). */
    int listenerBackendPid() {
        return backendPid;
    }

    @PreDestroy
    void close() {
        closed = true;
        listener.interrupt();
        try {
            listener.join(Math.max(100, 4L * pollMillis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void listen() {
        boolean warned = false;
        while (!closed) {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                PGConnection pg = connection.unwrap(PGConnection.class);
                statement.execute("LISTEN " + CHANNEL);
                backendPid = pg.getBackendPID();
                confirmedAtNanos = now();
                reset(); // changes made before LISTEN took effect were not heard
                connected = true;
                if (warned) {
                    LOG.info("store change listener listening again; lookup caches in use");
                    warned = false;
                }
                while (!closed) {
                    PGNotification[] received = pg.getNotifications(pollMillis);
                    if (received != null) {
                        for (PGNotification notification : received) {
                            apply(notification.getParameter());
                        }
                    }
                    long sent = now();
                    statement.execute("SELECT 1");
                    confirmedAtNanos = sent;
                }
            } catch (SQLException | RuntimeException e) {
                if (!closed && !warned) {
                    LOG.warn("store change listener lost its connection; lookups bypass the caches until it is back: {}",
                            e.toString());
                    warned = true;
                }
            } finally {
                connected = false;
                backendPid = 0;
                reset();
            }
            pause();
        }
    }

    /** Removes what one notification names: one key, or the whole table. */
    private void apply(String payload) {
        notifications.incrementAndGet();
        int colon = payload.indexOf(':');
        String table = colon < 0 ? payload : payload.substring(0, colon);
        for (StoreCache<?> cache : caches.getOrDefault(table, List.of())) {
            if (colon < 0) {
                cache.invalidateAll();
            } else {
                cache.invalidate(payload.substring(colon + 1));
            }
        }
    }

    private void reset() {
        caches.values().forEach(list -> list.forEach(StoreCache::invalidateAll));
        resets.incrementAndGet();
    }

    private void pause() {
        try {
            Thread.sleep(pollMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }
}
