package dev.gatehouse.gateway.decisions;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One decision as the index lists it: who asked what, when, on which replica, how it ended and under which revision.
 * Never an argument value; the whole record is {@link StoredDecision#record()}.
 *
 * @param decisionId the record's {@code decision_id}, the id its caller got
 * @param decidedAt  the record's {@code timestamp}
 * @param replica    the replica whose decision log holds the record ({@code GATEHOUSE_REPLICA_NAME})
 * @param method     {@code tools/call}, {@code tools/list} or {@code notice}
 * @param tool       the called name, for tools/call; {@code sha256:<hex>} when the log kept only its digest
 * @param callerKind {@code thread}, {@code outside_agent} or {@code project_notice}
 * @param agentId    the caller's logical agent id ({@code sha256:<hex>} when the log kept only its digest)
 * @param threadId   the calling thread, for thread callers
 * @param reasons    the reason codes, in the decision's order
 * @param revision   the bundle revision that decided; empty when the PDP could not decide
 * @param keyId      the id of the key that verified that revision, when known
 */
public record DecisionSummary(UUID decisionId, Instant decidedAt, String replica, String method,
        Optional<String> tool, String callerKind, String agentId, Optional<String> threadId, Outcome outcome,
        List<String> reasons, Optional<String> revision, Optional<String> keyId) {

    public DecisionSummary {
        Objects.requireNonNull(decisionId, "decisionId");
        Objects.requireNonNull(decidedAt, "decidedAt");
        Objects.requireNonNull(outcome, "outcome");
        reasons = List.copyOf(reasons);
    }
}
