package dev.gatehouse.gateway.policy.api;

/**
 * The result of asking the PDP: it decided, or it failed to decide (which denies). Failing to decide is its own
 * outcome, never an exception and never an allow (style card 2).
 *
 * @param <T> what a successful evaluation produced
 */
public sealed interface PolicyOutcome<T> {

    /** The PDP answered with a value of the expected shape. */
    record Decided<T>(T value) implements PolicyOutcome<T> {
    }

    /** The PDP could not answer; the PEP denies with {@code policy_unavailable}. */
    record Failed<T>(PolicyFault fault) implements PolicyOutcome<T> {
    }
}
