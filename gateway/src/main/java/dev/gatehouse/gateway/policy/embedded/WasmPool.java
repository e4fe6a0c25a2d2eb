package dev.gatehouse.gateway.policy.embedded;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * A fixed set of pre-loaded {@link WasmInstance}s, one borrower each. Unlike the SDK's {@code OpaPolicyPool}, a
 * returned instance keeps its data and is never reset (docs/design.md, "Two PDP engines, one bundle"). All instances exist
 * before the pool does; it never creates one lazily on a request. Last in, first out: at low concurrency the same
 * instance, whose generated classes the JIT has compiled hottest, serves call after call.
 */
final class WasmPool {

    private final BlockingDeque<WasmInstance> idle;

    /** @param instances every instance the pool will ever lend, already built and self-tested */
    WasmPool(List<WasmInstance> instances) {
        this.idle = new LinkedBlockingDeque<>(instances.size());
        instances.forEach(idle::addFirst);
    }

    /**
     * Takes an idle instance, waiting at most {@code wait}.
     *
     * @return the instance, or empty when none became free in time (or the thread was interrupted)
     */
    Optional<WasmInstance> borrow(Duration wait) {
        try {
            return Optional.ofNullable(idle.pollFirst(wait.toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Returns a borrowed instance, or a fresh replacement for one that failed while evaluating. */
    void release(WasmInstance instance) {
        if (!idle.offerFirst(instance)) {
            throw new IllegalStateException("more instances returned than the pool lent");
        }
    }
}
