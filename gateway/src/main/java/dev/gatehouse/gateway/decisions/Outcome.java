package dev.gatehouse.gateway.decisions;

import java.util.Arrays;
import java.util.Optional;

/**
 * How a decision ended for the caller, as the decisions search groups them: allowed; denied by the policy; or
 * unavailable, a fault the caller may retry and is not blamed for (the PDP could not decide, or every reason the
 * policy gave is retryable by its METADATA, such as a service lookup that failed; docs/domain.md §3, §8).
 */
public enum Outcome {
    ALLOWED("allowed"),
    DENIED("denied"),
    UNAVAILABLE("unavailable");

    private final String wire;

    Outcome(String wire) {
        this.wire = wire;
    }

    /** The word the API, the console and the index use. */
    public String wire() {
        return wire;
    }

    /** The outcome named {@code wire}, if it is one. */
    public static Optional<Outcome> ofWire(String wire) {
        return Arrays.stream(values()).filter(o -> o.wire.equals(wire)).findFirst();
    }
}
