package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;

/**
 * One engine's raw evaluation: decision-input JSON in, result set out. Implementations never throw; any error
 * from the engine or the transport is a {@link PolicyOutcome.Failed} with a {@code PolicyFault} code.
 */
@FunctionalInterface
public interface PolicyEvaluator {

    /**
     * @param entrypoint which document to evaluate
     * @param input      decision-input JSON built by {@link DecisionInputMapper} (or a golden case in tests)
     * @return the raw result set with the bundle revision, or the fault that kept the engine from answering
     */
    PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input);
}
