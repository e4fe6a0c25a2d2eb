package dev.gatehouse.gateway.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The meters of one name found by their tag values: registered once, each combination its own meter. */
class MeterTableTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<List<String>> registered = new ArrayList<>();

    private MeterTable<Counter> table() {
        return new MeterTable<>(tags -> {
            synchronized (registered) {
                registered.add(List.of(tags));
            }
            Counter.Builder builder = Counter.builder("t");
            for (int i = 0; i < tags.length; i++) {
                builder.tag("k" + i, tags[i]);
            }
            return builder.register(registry);
        });
    }

    @Test
    void eachCombinationIsRegisteredOnceWithItsTagsInOrder() {
        MeterTable<Counter> table = table();
        table.get("call", "wiki_read", "allow").increment();
        table.get("call", "wiki_read", "allow").increment();
        table.get("call", "wiki_read", "deny").increment();
        table.get("call", "wiki_write", "allow").increment();
        table.get("list", "wiki_read", "allow").increment();

        assertEquals(List.of(List.of("call", "wiki_read", "allow"), List.of("call", "wiki_read", "deny"),
                List.of("call", "wiki_write", "allow"), List.of("list", "wiki_read", "allow")), registered);
        assertEquals(2.0, registry.get("t").tags("k0", "call", "k1", "wiki_read", "k2", "allow").counter().count());
        assertEquals(1.0, registry.get("t").tags("k0", "call", "k1", "wiki_read", "k2", "deny").counter().count());
        assertEquals(1.0, registry.get("t").tags("k0", "list", "k1", "wiki_read", "k2", "allow").counter().count());
    }

    @Test
    void oneAndTwoTagValuesAreTheirOwnTables() {
        MeterTable<Counter> one = table();
        MeterTable<Counter> two = table();
        assertSame(one.get("a"), one.get("a"));
        assertNotSame(one.get("a"), one.get("b"));
        assertSame(two.get("a", "b"), two.get("a", "b"));
        assertNotSame(two.get("a", "b"), two.get("b", "a"));
        assertSame(registry.get("t").tags("k0", "b", "k1", "a").counter(), two.get("b", "a"));
    }

    @Test
    void callersRacingOnANewCombinationShareOneMeter() throws Exception {
        MeterTable<Counter> table = table();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        try {
            for (int t = 0; t < 8; t++) {
                pool.execute(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < 1_000; i++) {
                        table.get("x", "y").increment();
                    }
                });
            }
            start.countDown();
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
        assertEquals(8_000.0, registry.get("t").tags("k0", "x", "k1", "y").counter().count());
        // The registry would hand a second registration the same counter; the table must not ask twice.
        assertEquals(List.of(List.of("x", "y")), registered);
    }
}
