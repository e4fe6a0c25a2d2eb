package dev.gatehouse.gateway.tools;

import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.policy.api.Obligations;
import java.util.Map;
import java.util.UUID;

/**
 * One allowed tools/call as a handler sees it.
 *
 * @param arguments   the tool arguments, valid against schemas/tools/&lt;tool&gt;.input.json (JSON values as
 *                    {@code Map}/{@code List}/{@code String}/{@code Number}/{@code Boolean}); never a source of identity
 * @param obligations resolved modes and wiki paths, keyed by argument field, that the handler must use instead of the
 *                    raw arguments; the gate guarantees one for every field its access-table row names
 * @param context     the caller's trusted context; the only source of identity for facade calls
 * @param decisionId  the id of the decision that allowed the call, as the decision log recorded it
 */
public record ToolCall(Map<String, Object> arguments, Obligations obligations, TrustedContext context,
        UUID decisionId) {

    public ToolCall {
        arguments = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(arguments));
        java.util.Objects.requireNonNull(decisionId, "decisionId");
    }

    /**
     * The {@code Idempotency-Key} the call's mutation is sent with: derived from the decision id alone, never from
     * arguments ({@link IdempotencyKey} says why). A handler makes at most one mutation; an uncertain one reports
     * this key as its operation id (docs/domain.md §8).
     */
    public IdempotencyKey idempotencyKey() {
        return IdempotencyKey.forDecision(decisionId);
    }
}
