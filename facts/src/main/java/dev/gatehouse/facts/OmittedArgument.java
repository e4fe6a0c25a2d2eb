package dev.gatehouse.facts;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

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

    /**
     * The facts of {@code value} when it is longer than {@code maxBytes} in UTF-8; empty when it is not (no string
     * of n chars has more than 3n UTF-8 bytes, so a short one is not encoded to find out).
     */
    public static Optional<OmittedArgument> ifLonger(String value, int maxBytes) {
        if ((long) value.length() * 3 <= maxBytes) {
            return Optional.empty();
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= maxBytes ? Optional.empty() : Optional.of(of(bytes));
    }

    /** The facts of {@code value} whatever its length: for a value left out for another reason than its bytes. */
    public static OmittedArgument of(String value) {
        return of(value.getBytes(StandardCharsets.UTF_8));
    }

    private static OmittedArgument of(byte[] bytes) {
        try {
            return new OmittedArgument(bytes.length,
                    HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
