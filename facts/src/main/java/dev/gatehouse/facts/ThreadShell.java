package dev.gatehouse.facts;

import java.util.Objects;
import java.util.Optional;

/**
 * A thread as the host reported it on this call: a fact for the policy, which decides from it whether a caller owns
 * a live run and whether a target runs within the caller's limits (docs/domain.md §1, §3). Members other than
 * {@code lookup} are present only when the host answered with the thread.
 *
 * @param lookup             how the lookup ended
 * @param archived           the thread is archived
 * @param activeRun          the thread has an active run
 * @param providerInstanceId the provider instance the thread runs on now
 * @param runtimeMode        the thread's current runtime mode
 * @param interactionMode    the thread's current interaction mode
 */
public record ThreadShell(Lookup lookup, Optional<Boolean> archived, Optional<Boolean> activeRun,
        Optional<String> providerInstanceId, Optional<String> runtimeMode, Optional<String> interactionMode) {

    public ThreadShell {
        Objects.requireNonNull(lookup, "lookup");
        Objects.requireNonNull(archived, "archived");
        Objects.requireNonNull(activeRun, "activeRun");
        Objects.requireNonNull(providerInstanceId, "providerInstanceId");
        Objects.requireNonNull(runtimeMode, "runtimeMode");
        Objects.requireNonNull(interactionMode, "interactionMode");
    }

    /** A thread the host answered with. */
    public static ThreadShell found(boolean archived, boolean activeRun, Optional<String> providerInstanceId,
            String runtimeMode, String interactionMode) {
        return new ThreadShell(Lookup.FOUND, Optional.of(archived), Optional.of(activeRun), providerInstanceId,
                Optional.of(runtimeMode), Optional.of(interactionMode));
    }

    /** A lookup that ended without the thread's facts. */
    public static ThreadShell of(Lookup lookup) {
        return new ThreadShell(lookup, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** How a thread lookup ended, spelled as in the decision input. */
    public enum Lookup {
        /** The host answered with the thread. */
        FOUND("found"),
        /** The host answered that no such thread exists. */
        NOT_FOUND("not_found"),
        /** The host failed or did not answer in time: the thread's facts are unknown (a fault, not a denial). */
        UNAVAILABLE("unavailable");

        private final String wire;

        Lookup(String wire) {
            this.wire = wire;
        }

        /** The value in the decision input. */
        public String wire() {
            return wire;
        }
    }
}
