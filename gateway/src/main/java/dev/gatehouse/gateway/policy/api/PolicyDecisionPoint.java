package dev.gatehouse.gateway.policy.api;

/**
 * The PDP: evaluates the policy bundle built from {@code policies/} for one decision input. Two engines implement
 * it (embedded Wasm, remote OPA) and pass the same contract test over the golden matrix.
 *
 * <p>Fail-closed contract: neither method throws. A missing or corrupt bundle, an evaluation error, a timeout, or a
 * result that is not exactly the documented shape is returned as {@link PolicyOutcome.Failed}, which the PEP treats
 * as a denial with reason {@code policy_unavailable}. Only a literal JSON {@code true} in {@code allow} allows.
 */
public interface PolicyDecisionPoint {

    /**
     * Evaluates {@code data.gatehouse.authz.decision} (schemas/decision.json) for one tools/call.
     *
     * @param input the decision input (schemas/decision-input.json), with tool, arguments and argument errors
     * @return the decision, or the fault that kept the PDP from deciding
     */
    PolicyOutcome<Decision> decide(DecisionInput input);

    /**
     * Evaluates {@code data.gatehouse.authz.visible_tools} for tools/list: the names this caller may call, in one
     * evaluation.
     *
     * @param input the decision input without tool, arguments and argument errors
     * @return the sorted tool names, or the fault that kept the PDP from deciding (the PEP then answers tools/list as unavailable)
     */
    PolicyOutcome<VisibleTools> visibleTools(DecisionInput input);

    /** Current health: the bundle revision in use, or why there is none. Cheap; safe to call from health checks. */
    PdpStatus status();
}
