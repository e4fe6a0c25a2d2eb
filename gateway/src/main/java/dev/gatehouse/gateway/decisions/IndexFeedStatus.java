package dev.gatehouse.gateway.decisions;

import java.time.Instant;
import java.util.Optional;

/**
 * How this replica's feed into the decision index stands, for {@code /health}: whether its last write worked, the last
 * error and when, how many decisions it wrote since start-up, and when it last had nothing left to write. A failing
 * feed stops nothing: the replica goes on deciding and logging, and the feed catches up later.
 */
public final class IndexFeedStatus {

    /** One view of the status. */
    public record View(String replica, boolean failing, Instant since, long indexed, Optional<Instant> caughtUpAt,
            Optional<String> lastError, Optional<Instant> lastErrorAt) {
    }

    private final String replica;
    private boolean failing;
    private Instant since;
    private long indexed;
    private Instant caughtUpAt;
    private String lastError;
    private Instant lastErrorAt;

    public IndexFeedStatus(String replica, Instant startedAt) {
        this.replica = replica;
        this.since = startedAt;
    }

    /** A batch of {@code count} decisions was written. */
    public synchronized void indexed(int count, Instant at) {
        indexed += count;
        if (failing) {
            failing = false;
            since = at;
        }
    }

    /** The feed has written everything the log holds. */
    public synchronized void caughtUp(Instant at) {
        caughtUpAt = at;
    }

    /** A batch could not be read or written; {@code error} never holds a value of a record. */
    public synchronized void failed(String error, Instant at) {
        if (!failing) {
            failing = true;
            since = at;
        }
        lastError = error;
        lastErrorAt = at;
    }

    public synchronized View view() {
        return new View(replica, failing, since, indexed, Optional.ofNullable(caughtUpAt),
                Optional.ofNullable(lastError), Optional.ofNullable(lastErrorAt));
    }
}
