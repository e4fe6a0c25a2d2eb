package dev.gatehouse.gateway.policy.api;

import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.NoticeInput;
import java.util.Optional;

/**
 * The PDP: serves one activated revision of the policy bundle at a time ({@link ServedPolicy}). Two engines
 * implement it (embedded Wasm, remote OPA) and pass the same contract test over the golden matrix.
 *
 * <p>Fail-closed contract: no method throws. A missing, unverifiable or unenforceable bundle leaves
 * {@link #serving()} empty; an evaluation error, a timeout, or a result that is not exactly the documented shape is
 * returned as {@link PolicyOutcome.Failed}; the PEP treats both as a denial with reason {@code policy_unavailable}.
 * Only a literal JSON {@code true} in {@code allow} allows.
 */
public interface PolicyDecisionPoint {

    /**
     * The revision serving now. A caller takes it once and decides everything of one call on it.
     *
     * @return the serving revision, or empty when none is (no bundle yet, or none that could be activated)
     */
    Optional<ServedPolicy> serving();

    /** Current health: the bundle revision in use, or why there is none. Cheap; safe to call from health checks. */
    PdpStatus status();

    /**
     * {@link ServedPolicy#decide} on the revision serving now, for callers that need nothing else of it (the admin
     * read API, tests).
     */
    default PolicyOutcome<Decision> decide(DecisionInput input) {
        return serving().map(policy -> policy.decide(input)).orElseGet(this::noRevision);
    }

    /** {@link ServedPolicy#visibleTools} on the revision serving now. */
    default PolicyOutcome<VisibleTools> visibleTools(DecisionInput input) {
        return serving().map(policy -> policy.visibleTools(input)).orElseGet(this::noRevision);
    }

    /**
     * {@link ServedPolicy#notice} on the revision serving now: the notice entry point ({@code gatehouse/authz/notice},
     * docs/domain.md §9) on its typed input, as notice delivery asks it. Delivery itself takes the revision once per
     * pass and asks it there ({@code gate.GatePipeline}); this is for callers that need nothing else of it.
     */
    default PolicyOutcome<Decision> notice(NoticeInput input) {
        return serving().map(policy -> policy.notice(input)).orElseGet(this::noRevision);
    }

    /** The fault of a call made while no revision serves: the status's fault, or a generic one. */
    default <T> PolicyOutcome<T> noRevision() {
        return new PolicyOutcome.Failed<>(status().fault().orElseGet(() -> new PolicyFault(
                PolicyFault.BUNDLE_UNAVAILABLE, "no policy revision is serving")));
    }
}
