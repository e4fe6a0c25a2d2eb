package dev.gatehouse.gateway.decisions;

import java.util.Optional;

/**
 * How a decision ended for the caller, as the decisions search groups them: allowed; denied by the policy;
 * unavailable, a fault the caller may retry and is not blamed for (the PDP could not decide, every reason the policy
 * gave is retryable by its METADATA, such as a service lookup that failed, or the quota step had no time left to
 * charge the call; docs/domain.md §3, §8, §10); or rate_limited, refused by the PEP's quota enforcement (over its
 * budget or its caller's fair share, §10), whatever the policy decided: the call did not run.
 */
public enum Outcome {
    ALLOWED("allowed"),
    DENIED("denied"),
    UNAVAILABLE("unavailable"),
    RATE_LIMITED("rate_limited");

    /** Every outcome, looked through on every record listed (values() copies its array each time). */
    private static final Outcome[] ALL = values();

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
        for (Outcome outcome : ALL) {
            if (outcome.wire.equals(wire)) {
                return Optional.of(outcome);
            }
        }
        return Optional.empty();
    }
}
