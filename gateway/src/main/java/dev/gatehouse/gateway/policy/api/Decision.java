package dev.gatehouse.gateway.policy.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A decision as a value (style card 1): the policy's answer plus its provenance.
 *
 * @param allow          true only when the policy returned a literal JSON {@code true}
 * @param reasons        empty when allowed; otherwise one per reason code, in policy order
 * @param obligations    what the PEP must apply to an allowed call; {@link Obligations#NONE} when denied
 * @param bundleRevision the manifest revision of the one bundle that decided ({@code opa build --revision}); a
 *                       decision is always wholly one revision, so it also keys anything cached per revision
 * @param evalMicros     evaluation time in microseconds (engine call, including marshalling)
 * @param bundleKeyId    the id of the key that verified that bundle; empty for the remote engine (OPA verifies
 *                       there) and for an unsigned bundle allowed in development
 */
public record Decision(boolean allow, List<Reason> reasons, Obligations obligations, String bundleRevision,
        long evalMicros, Optional<String> bundleKeyId) {

    public Decision {
        reasons = List.copyOf(reasons);
        Objects.requireNonNull(obligations, "obligations");
        Objects.requireNonNull(bundleRevision, "bundleRevision");
        Objects.requireNonNull(bundleKeyId, "bundleKeyId");
    }

    /** A decision without a known verifying key. */
    public Decision(boolean allow, List<Reason> reasons, Obligations obligations, String bundleRevision,
            long evalMicros) {
        this(allow, reasons, obligations, bundleRevision, evalMicros, Optional.empty());
    }

    /** This decision as answered again in {@code micros} (a memo hit), everything else as it was. */
    public Decision withEvalMicros(long micros) {
        return new Decision(allow, reasons, obligations, bundleRevision, micros, bundleKeyId);
    }

    /** One reason for a denial: a stable code from the policy and a human-readable message. */
    public record Reason(String code, String message) {
        public Reason {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(message, "message");
        }
    }
}
