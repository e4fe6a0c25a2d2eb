package dev.gatehouse.gateway.policy.api;

import java.util.Objects;

/**
 * Stands, in the arguments of a {@link DecisionInput}, for a string the PEP does not send to the PDP because the
 * policy never reads its value (docs/design.md "What a decision costs"). The decision-input JSON has {@code null}
 * in its place and lists it under {@code omittedArguments} by its JSON Pointer, with these facts; the decision log
 * writes the same input, so the value's length and digest are kept for audit and a replay evaluates exactly what
 * the PDP evaluated.
 *
 * @param length UTF-8 byte count of the value
 * @param sha256 64 lower-case hex digits of SHA-256 over those bytes
 */
public record OmittedArgument(long length, String sha256) {

    public OmittedArgument {
        Objects.requireNonNull(sha256, "sha256");
    }
}
