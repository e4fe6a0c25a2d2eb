package dev.gatehouse.gateway.policy.api;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The revisions a PDP engine has activated and keeps, and the offers it refused, for the operator console (replay
 * against another revision, the matrix diff, the policy page). The embedded engine keeps the last
 * {@code gatehouse.policy.kept-revisions} it activated; the remote engine keeps none but the one OPA serves now (OPA
 * activates bundles itself and evaluates only its current one).
 */
public interface RevisionHistory {

    /** The revisions kept, the newest activation first (the serving one first while one serves); one per revision. */
    List<KeptRevision> kept();

    /** The revision kept under this manifest revision, if any. */
    default Optional<KeptRevision> kept(String revision) {
        return kept().stream().filter(k -> k.revision().equals(revision)).findFirst();
    }

    /** Offers refused, newest first (a bounded list). */
    List<Refusal> refusals();

    /** How many revisions this engine keeps at most. */
    int capacity();

    /**
     * One bundle offered and refused; the serving revision kept serving.
     *
     * @param at     when it was refused
     * @param reason why (verification, rollback, self-test, enforcement check, unreadable archive)
     */
    record Refusal(Instant at, String reason) {

        public Refusal {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
