package dev.gatehouse.gateway.notice;

import java.util.Optional;

/**
 * Which replica consumes the notice streams: every replica runs {@link NoticeConsumer}, and exactly one at a time
 * holds the streams and delivers (docs/design.md, "Project Work notices"). The hold lasts as long as the holder's
 * own connection to the shared store: it has no expiry, so a holder that is frozen (stopped, paused, swapped out)
 * keeps it and nobody delivers beside it, and a holder that dies loses it the moment the store sees its connection
 * close. {@link #tryTake} and {@link #holder} throw {@code StoreUnavailableException} when the store does not answer
 * within its deadline.
 */
public interface StreamLock {

    /**
     * Takes the streams when no replica holds them.
     *
     * @return true when this replica holds them now (also when it already did)
     */
    boolean tryTake();

    /**
     * Checks with a round trip to the store that this replica still holds the streams. A hold that cannot be
     * confirmed within the store's deadline is given up (its connection closed, so the store frees it as soon as it
     * reads again) and false is returned; the caller must stop delivering.
     */
    boolean confirm();

    /** The name of the replica holding the streams now ({@code gatehouse.notices.replica-name}), empty when none. */
    Optional<String> holder();

    /** Lets go of the streams; another replica may take them at once. */
    void release();
}
