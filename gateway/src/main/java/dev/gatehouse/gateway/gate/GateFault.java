package dev.gatehouse.gateway.gate;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Nothing was decided, or nothing decided may be acted on: the one fault of the gate's steps, the same value for
 * tools/call, tools/list and notices (docs/design.md, "The gate's steps"). A fault is retryable and never a denial:
 * the transport answers it HTTP 503 {@code unavailable} with {@code Retry-After} (a tools/list never as an empty list a
 * client could cache), and notice delivery keeps the notice pending and tries again after its backoff.
 *
 * @param kind       which step could not be completed
 * @param decisionId the id of the decision record when the fault came at or after the decision step (the record
 *                   names the PDP's fault, or is the one that could not be written); empty for {@link Kind#FACTS}
 * @param detail     a fixed, operator-facing description for the server log; never shown to the caller and never
 *                   holding decision input
 */
public record GateFault(Kind kind, Optional<UUID> decisionId, String detail) {

    /** Where the steps stopped. */
    public enum Kind {
        /**
         * The facts could not be gathered: the shared store did not answer within its deadline (for a notice also
         * the host's lookup of its mapped thread). Nothing was decided or logged.
         */
        FACTS,
        /**
         * The PDP did not decide: no revision is serving, the engine faulted or was busy past its deadline, or it
         * answered something other than the entry point's shape. The fault is in the decision log.
         */
        DECISION,
        /** The decision could not be written to the decision log, so it is not enforced (style card 7). */
        DECISION_LOG,
        /**
         * The quota step could not charge an allowed call: the request's store time was spent before its shared
         * bucket was read. Nothing was charged and the call did not run; the decision and that are in the log.
         */
        QUOTA
    }

    public GateFault {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(decisionId, "decisionId");
        Objects.requireNonNull(detail, "detail");
    }

    /** The facts could not be gathered ({@link Kind#FACTS}). */
    public static GateFault facts(String detail) {
        return new GateFault(Kind.FACTS, Optional.empty(), detail);
    }
}
