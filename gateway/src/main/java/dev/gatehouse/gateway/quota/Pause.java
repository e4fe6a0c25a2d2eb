package dev.gatehouse.gateway.quota;

import java.util.concurrent.locks.LockSupport;

/** How a call waits for its token: parks the calling thread; tests give one that moves their clock instead. */
@FunctionalInterface
interface Pause {

    /** Parks the caller for about {@code nanos} (an interrupt ends the wait early, and the call is then refused). */
    void nanos(long nanos);

    Pause PARK = LockSupport::parkNanos;
}
