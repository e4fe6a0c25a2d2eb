package dev.gatehouse.gateway.lifecycle;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the {@code /mcp} requests in flight and, once draining has begun, refuses new ones. The count is the gauge
 * {@value #GAUGE} (requests, back to 0 when idle). {@link #drain} is called once at shutdown, before the server stops
 * ({@link JettyDrain}); readiness reports not ready from then on.
 */
@Singleton
public class CallTracker {

    /** Gauge name: {@code /mcp} requests being served now. */
    public static final String GAUGE = "gatehouse.mcp.in_flight";

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int inFlight;
    private boolean draining;

    public CallTracker(MeterRegistry meters) {
        Gauge.builder(GAUGE, this, CallTracker::inFlight)
                .description("/mcp requests being served now").register(meters);
    }

    /**
     * Enters one request.
     *
     * @return false when draining: the caller must answer 503 with {@code Retry-After} and not call {@link #exit}
     */
    public boolean enter() {
        lock.lock();
        try {
            if (draining) {
                return false;
            }
            inFlight++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Leaves a request {@link #enter} admitted; exactly once per admitted request. */
    public void exit() {
        lock.lock();
        try {
            inFlight--;
            if (inFlight == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Requests admitted and not yet left. */
    public int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #drain} has begun (new requests are refused). */
    public boolean draining() {
        lock.lock();
        try {
            return draining;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses every new request from now on and waits until those in flight have left or {@code deadline} passed.
     *
     * @return the number still in flight when it returned (0 when drained)
     */
    public int drain(Duration deadline) {
        lock.lock();
        try {
            draining = true;
            long left = deadline.toNanos();
            while (inFlight > 0 && left > 0) {
                left = idle.awaitNanos(left);
            }
            return inFlight;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return inFlight;
        } finally {
            lock.unlock();
        }
    }
}
