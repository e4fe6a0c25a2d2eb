package dev.gatehouse.gateway.policy;

import dev.gatehouse.gateway.policy.api.CallerFacts;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.DecisionInput;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The start-up check every engine runs before it serves: one evaluation of each entrypoint with a fixed input.
 * The decision for a tool that is in no access table must be exactly a denial with the single reason
 * {@code unknown_tool} and no obligations; that also proves the policy data is loaded (without data the reason
 * list is empty, and the parser rejects a denial without reasons). visible_tools must parse as a list of names.
 * A built-in the Wasm host lacks fails here, at the first evaluation (the Wasm SDK resolves built-ins lazily).
 */
public final class SelfTest {

    /** The reason code the self-test decision must carry (docs/domain.md §3). */
    private static final String EXPECTED_CODE = "unknown_tool";

    private static final CallerFacts CALLER = new CallerFacts("thread", "self-test", Optional.of("self-test"),
            Optional.empty(), Optional.empty(), Optional.empty(), new CallerFacts.Settings(false, false, false, false),
            Optional.empty());

    private static final String ROOT = "agents/self-test";

    private static final DecisionInput CALL = new DecisionInput(Optional.of("gatehouse self-test: no such tool"),
            Optional.of(Map.of()), List.of(), CALLER, Map.of(), ROOT);

    private SelfTest() {
    }

    /**
     * Runs both evaluations.
     *
     * @return the bundle revision that answered, when both answers have the expected shape; otherwise a
     *         {@link PolicyFault#BUNDLE_UNAVAILABLE} fault naming the entrypoint and what was wrong
     */
    public static PolicyOutcome<String> run(PolicyEvaluator evaluator) {
        long start = System.nanoTime();
        PolicyOutcome<ResultSet> decisionAnswer = evaluator.evaluate(Entrypoint.DECISION,
                DecisionInputMapper.forCall(CALL));
        Optional<String> problem = decisionAnswer instanceof PolicyOutcome.Decided<ResultSet> decided
                ? checkDecision(DecisionParser.decision(decided.value(), start))
                : Optional.of(describe(decisionAnswer));
        if (problem.isPresent()) {
            return fault(Entrypoint.DECISION, problem.get());
        }
        PolicyOutcome<ResultSet> listAnswer = evaluator.evaluate(Entrypoint.VISIBLE_TOOLS,
                DecisionInputMapper.forListing(DecisionInput.forListing(CALLER, ROOT)));
        if (listAnswer instanceof PolicyOutcome.Decided<ResultSet> decided) {
            var tools = DecisionParser.visibleTools(decided.value(), start);
            return tools instanceof PolicyOutcome.Failed<?> failed
                    ? fault(Entrypoint.VISIBLE_TOOLS, describe(failed))
                    : new PolicyOutcome.Decided<>(decided.value().revision());
        }
        return fault(Entrypoint.VISIBLE_TOOLS, describe(listAnswer));
    }

    private static Optional<String> checkDecision(PolicyOutcome<Decision> outcome) {
        if (outcome instanceof PolicyOutcome.Failed<Decision> failed) {
            return Optional.of(describe(failed));
        }
        Decision decision = ((PolicyOutcome.Decided<Decision>) outcome).value();
        boolean expected = !decision.allow()
                && decision.reasons().size() == 1
                && decision.reasons().get(0).code().equals(EXPECTED_CODE)
                && decision.obligations().equals(Obligations.NONE);
        return expected ? Optional.empty()
                : Optional.of("expected a denial with the single reason " + EXPECTED_CODE + ", got allow="
                        + decision.allow() + " reasons=" + decision.reasons().stream().map(Decision.Reason::code)
                        .toList());
    }

    private static String describe(PolicyOutcome<?> outcome) {
        PolicyFault fault = ((PolicyOutcome.Failed<?>) outcome).fault();
        return fault.code() + ": " + fault.detail();
    }

    private static PolicyOutcome<String> fault(Entrypoint entrypoint, String problem) {
        return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE, "self-test of "
                + entrypoint.path() + " failed: " + problem));
    }
}
