package dev.gatehouse.gateway.policy.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.policy.TestBundle;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A call waits for an instance up to its deadline and no longer; a returned instance is lent again at once. */
class WasmPoolTest {

    @Test
    void anExhaustedPoolAnswersEmptyAfterTheWaitAndLendsAgainAfterARelease() throws Exception {
        WasmInstance only = new WasmInstance(TestBundle.freshWasmBundle());
        WasmPool pool = new WasmPool(List.of(only));
        assertEquals(Optional.of(only), pool.borrow(Duration.ZERO));
        long start = System.nanoTime();
        assertEquals(Optional.empty(), pool.borrow(Duration.ofMillis(50)));
        assertTrue(System.nanoTime() - start >= Duration.ofMillis(50).toNanos(), "waited for the deadline");
        Thread releaser = new Thread(() -> pool.release(only));
        releaser.start();
        assertEquals(Optional.of(only), pool.borrow(Duration.ofSeconds(30)), "a release wakes the waiting call");
        releaser.join();
    }
}
