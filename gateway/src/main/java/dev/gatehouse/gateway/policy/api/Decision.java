package dev.gatehouse.gateway.policy.api;

import java.util.List;
import java.util.Objects;

/**
 * A decision as a value (style card 1): the policy's answer plus its provenance.
 *
 * @param allow          true only when the policy returned a literal JSON {@code true}
 * @param reasons        empty when allowed; otherwise one per reason code, in policy order
 * @param obligations    what the PEP must apply to an allowed call; {@link Obligations#NONE} when denied
 * @param bundleRevision revision (SHA-256) of the bundle that decided
 * @param evalMicros     evaluation time in microseconds (engine call, including marshalling)
 */
public record Decision(boolean allow, List<Reason> reasons, Obligations obligations, String bundleRevision,
        long evalMicros) {

    public Decision {
        reasons = List.copyOf(reasons);
        Objects.requireNonNull(obligations, "obligations");
        Objects.requireNonNull(bundleRevision, "bundleRevision");
    }

    /** One reason for a denial: a stable code from the policy and a human-readable message. */
    public record Reason(String code, String message) {
        public Reason {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }
    }
}
