package dev.gatehouse.facade.http;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The {@code Idempotency-Key} every mutation a tool call makes is sent with (schemas/services/README.md,
 * "Idempotency keys"): {@value #PREFIX} followed by the id of the decision that allowed the call. It is derived on
 * the server, from the decision id alone, never from arguments: a decision id is minted by the gateway for one call
 * (a random UUID), so two calls never share a key and an agent cannot choose one (not even one that names another
 * agent's operation); it is the id the decision log records, so an operator joins the service's operation to the
 * decision that allowed it; and each tools/call makes at most one mutation, so one key per decision is enough. A
 * call sent again by an agent is a new decision and so a new operation: the gateway itself never resends one
 * (docs/domain.md §8).
 *
 * <p>When a mutation's outcome is unknown, the key is the operation id the agent is given; {@link #parse} tells
 * such an id from one a service assigned, so {@code project_operation_get} can look it up by key.
 *
 * @param value the header value, {@value #PREFIX} + a UUID in lower-case hex
 */
public record IdempotencyKey(String value) {

    /** What every key begins with: a gateway key is never mistaken for an id a service assigned. */
    public static final String PREFIX = "gatehouse-";

    private static final Pattern FORM = Pattern.compile(Pattern.quote(PREFIX)
            + "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    public IdempotencyKey {
        Objects.requireNonNull(value, "value");
        if (!FORM.matcher(value).matches()) {
            throw new IllegalArgumentException("not a gateway idempotency key");
        }
    }

    /** The key of the mutation the call allowed by decision {@code decisionId} makes. */
    public static IdempotencyKey forDecision(UUID decisionId) {
        return new IdempotencyKey(PREFIX + decisionId);
    }

    /** {@code text} as a key, when it has a key's form (an operation id an agent was given for an unknown outcome). */
    public static Optional<IdempotencyKey> parse(String text) {
        return text != null && FORM.matcher(text).matches() ? Optional.of(new IdempotencyKey(text)) : Optional.empty();
    }

    @Override
    public String toString() {
        return value;
    }
}
