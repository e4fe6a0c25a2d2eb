package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.policy.api.Decision.Reason;

/**
 * The one reason the PEP itself produces. Every other reason code comes from the policy; this one says the policy
 * could not be asked or answered something the PEP cannot enforce (style card 2).
 */
public final class GateReasons {

    /** docs/domain.md §3 reason code for a PDP fault, an unenforceable decision, or a failed decision-log write. */
    public static final String POLICY_UNAVAILABLE = "policy_unavailable";

    private GateReasons() {
    }

    /** The {@code policy_unavailable} reason; the message never includes fault details. */
    public static Reason policyUnavailable() {
        return new Reason(POLICY_UNAVAILABLE, "the policy decision point could not decide; the call is denied");
    }
}
