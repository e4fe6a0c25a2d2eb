package dev.gatehouse.gateway.tools;

import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.policy.api.Obligations;
import java.util.Map;

/**
 * One allowed tools/call as a handler sees it.
 *
 * @param arguments   the tool arguments, valid against schemas/tools/&lt;tool&gt;.input.json (JSON values as
 *                    {@code Map}/{@code List}/{@code String}/{@code Number}/{@code Boolean}); never a source of identity
 * @param obligations resolved modes and wiki paths, keyed by argument field, that the handler must use instead of the
 *                    raw arguments; the gate guarantees one for every field its access-table row names
 * @param context     the caller's trusted context; the only source of identity for facade calls
 */
public record ToolCall(Map<String, Object> arguments, Obligations obligations, TrustedContext context) {

    public ToolCall {
        arguments = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(arguments));
    }
}
