package dev.gatehouse.facts;

import dev.gatehouse.facts.DecisionInput.ArgumentError;
import java.util.List;
import java.util.Map;

/**
 * Compiles a tool's closed input schema once per revision, and validates arguments against it, reporting every
 * violation as a fact for the policy (never a verdict: the policy names identity keys {@code identity_argument} and
 * the rest {@code schema}). One seam so the gate imports no JSON library.
 */
public interface ArgumentCheck {

    /**
     * @param schema the schema as JSON values ({@code Map}/{@code List}/scalars)
     * @return the compiled schema
     * @throws IllegalArgumentException when it is not a JSON Schema the validator can use
     */
    Validator compile(Map<String, Object> schema);

    /** One compiled schema; safe to share between threads. */
    interface Validator {

        /**
         * @param arguments the arguments as received ({@code Map} for an object; any JSON value otherwise)
         * @return every violation, without argument values in the messages; empty when valid
         */
        List<ArgumentError> check(Object arguments);
    }
}
