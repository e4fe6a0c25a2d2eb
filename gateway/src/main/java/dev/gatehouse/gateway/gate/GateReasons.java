package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.policy.api.Decision.Reason;
import java.util.Set;

/**
 * The reasons the PEP itself produces. Every other reason code comes from the policy: {@code policy_unavailable} says
 * the policy could not be asked or answered something the PEP cannot enforce (style card 2), {@code rate_limited}
 * that an allowed call was over its quota or its caller's fair share (docs/domain.md §10). Both are retryable and
 * listed with the policy's codes in policies/REASON_CODES.md (scripts/reason-codes.py, {@code PEP_CODES}).
 */
public final class GateReasons {

    /** docs/domain.md §3 reason code for a PDP fault, an unenforceable decision, or a failed decision-log write. */
    public static final String POLICY_UNAVAILABLE = "policy_unavailable";

    /** docs/domain.md §10 reason code for a call over its quota or its caller's fair share; retry after the time given. */
    public static final String RATE_LIMITED = "rate_limited";

    /** Every code the PEP itself produces, beside the policy's catalogue. */
    public static final Set<String> CODES = Set.of(POLICY_UNAVAILABLE, RATE_LIMITED);

    private GateReasons() {
    }

    /** The {@code policy_unavailable} reason; the message never includes fault details. */
    public static Reason policyUnavailable() {
        return new Reason(POLICY_UNAVAILABLE, "the policy decision point could not decide; the call is denied");
    }

    /** The {@code rate_limited} reason: nothing about the call was wrong, it came too soon. */
    public static Reason rateLimited() {
        return new Reason(RATE_LIMITED, "over this agent's quota or its share of the gateway; retry after"
                + " retryAfterMs");
    }
}
