package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.host.NoticeThread;
import java.util.Optional;

/**
 * The mapped thread of an agent + project as the host reported it: none mapped, found (with its shell), not found
 * (the thread is gone), or unavailable (the host could not say).
 */
public record ThreadLookup(Outcome outcome, Optional<String> threadId, Optional<NoticeThread> shell) {

    /** The lookup outcomes, spelled as in the decision input. */
    public enum Outcome {
        NONE("none"), FOUND("found"), NOT_FOUND("not_found"), UNAVAILABLE("unavailable");

        private final String wire;

        Outcome(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    static ThreadLookup none() {
        return new ThreadLookup(Outcome.NONE, Optional.empty(), Optional.empty());
    }

    static ThreadLookup found(NoticeThread shell) {
        return new ThreadLookup(Outcome.FOUND, Optional.of(shell.threadId()), Optional.of(shell));
    }

    static ThreadLookup notFound(String threadId) {
        return new ThreadLookup(Outcome.NOT_FOUND, Optional.of(threadId), Optional.empty());
    }

    static ThreadLookup unavailable(String threadId) {
        return new ThreadLookup(Outcome.UNAVAILABLE, Optional.of(threadId), Optional.empty());
    }

    /** True when the mapped thread exists and has an active run. */
    boolean busy() {
        return shell.map(NoticeThread::busy).orElse(false);
    }
}
