package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.policy.api.DecisionInput.ArgumentError;
import java.util.List;

/**
 * Validates tool arguments against the tool's closed input schema and reports every violation as a fact for the
 * policy (never a verdict: the policy names identity keys {@code identity_argument} and the rest {@code schema}).
 * One seam so the gate imports no JSON library.
 */
public interface ArgumentCheck {

    /**
     * @param schema    the tool's closed input schema
     * @param arguments the arguments as received ({@code Map} for an object; any JSON value otherwise)
     * @return every violation, without argument values in the messages; empty when valid
     */
    List<ArgumentError> check(ToolSchema schema, Object arguments);
}
