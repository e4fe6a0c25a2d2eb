package dev.gatehouse.gateway.policy.embedded;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.gateway.policy.TestBundle;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A call waits for an instance up to its deadline and no longer; a returned instance is lent again at once. Nothing is
 * timed: the waiting call is seen waiting (its thread parked in the pool), then woken by the release.
 */
class WasmPoolTest {

    @Test
    void anExhaustedPoolAnswersEmptyAfterTheWaitAndLendsAgainAfterARelease() throws Exception {
        WasmInstance only = new WasmInstance(TestBundle.freshWasmBundle());
        WasmPool pool = new WasmPool(List.of(only));
        assertEquals(Optional.of(only), pool.borrow(Duration.ZERO));
        assertEquals(Optional.empty(), pool.borrow(Duration.ZERO), "none idle, no wait");
        assertEquals(Optional.empty(), pool.borrow(Duration.ofMillis(50)), "none released within the wait");

        AtomicReference<Thread> borrower = new AtomicReference<>();
        CompletableFuture<Optional<WasmInstance>> waiting = CompletableFuture.supplyAsync(() -> {
            borrower.set(Thread.currentThread());
            return pool.borrow(Duration.ofMinutes(10));
        });
        await("the borrower waits in the pool").until(() -> borrower.get() != null
                && borrower.get().getState() == Thread.State.TIMED_WAITING);
        pool.release(only);
        assertEquals(Optional.of(only), waiting.get(), "a release wakes the waiting call");
    }
}
