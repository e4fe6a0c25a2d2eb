package dev.gatehouse.facade.host;

import java.time.Instant;
import java.util.Optional;

/**
 * One change of a thread's shell in the host's feed.
 *
 * @param cursor   the feed position ({@link ThreadCursor}); resuming after it skips it
 * @param threadId the thread
 * @param type     {@code run_started}, {@code run_ended}, {@code modes_changed}, {@code archived},
 *                 {@code unarchived}, {@code provider_instance_changed}; other types may come and are read by
 *                 their shell alone
 * @param runId    the run that started or ended; empty for the other types
 * @param at       when the host made the change, by its clock
 * @param thread   the thread's shell right after the change; empty when the thread no longer exists
 */
public record ThreadEvent(String cursor, String threadId, String type, Optional<String> runId, Instant at,
        Optional<ThreadState> thread) {

    /** True for the end of a turn. */
    public boolean runEnded() {
        return type.equals("run_ended");
    }
}
