package dev.gatehouse.facade.host;

import java.util.List;

/**
 * Every thread's shell as the host lists it, and the cursor of the last thread event the list reflects: watching
 * the feed after {@code cursor} misses no later change.
 */
public record ThreadListing(List<ThreadState> threads, String cursor) {
    public ThreadListing {
        threads = List.copyOf(threads);
    }
}
