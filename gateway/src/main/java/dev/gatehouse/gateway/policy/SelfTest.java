package dev.gatehouse.gateway.policy;

import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The check every engine runs on a revision before it serves it: one evaluation of each entry point the PEP asks,
 * with a fixed input. The decision for a tool that is in no access table must be a denial with reasons and no
 * obligations (which codes is the policy's to say; without policy data the reason list is empty, and the parser
 * rejects a denial without reasons). visible_tools must parse as a list of names.
 * A built-in the Wasm host lacks fails here, at the first evaluation (the Wasm SDK resolves built-ins lazily).
 *
 * <p>A bundle may also ship a smoke set of golden cases ({@code data.gatehouse.smoke.cases}, each
 * {@code {name, input, expected}}, written by {@code scripts/smoke-cases.py} from policy-tests/golden and checked
 * by {@code opa test}); {@link #run(PolicyEvaluator, JsonNode)} decides each and requires the expected
 * {@code allow}, the same set of reason codes and the same obligations. A new revision that fails any of them is
 * not activated.
 */
public final class SelfTest {

    private static final CallerFacts CALLER = new CallerFacts("thread", "self-test", Optional.of("self-test"),
            Optional.empty(), Optional.empty(), Optional.empty(),
            new CallerFacts.Settings(false, false, false, false, false), Optional.empty());

    private static final DecisionInput CALL = new DecisionInput(Optional.of("gatehouse self-test: no such tool"),
            Optional.of(Map.of()), List.of(), CALLER, Map.of());

    private SelfTest() {
    }

    /**
     * Runs both evaluations.
     *
     * @return the bundle revision that answered, when both answers have the expected shape; otherwise a
     *         {@link PolicyFault#BUNDLE_UNAVAILABLE} fault naming the entrypoint and what was wrong
     */
    public static PolicyOutcome<String> run(PolicyEvaluator evaluator) {
        return run(evaluator, PolicyJson.MAPPER.createArrayNode());
    }

    /**
     * Runs both evaluations, then every smoke case.
     *
     * @param smokeCases an array of {@code {name, input, expected}}; a malformed case fails the test
     * @return as {@link #run(PolicyEvaluator)}; a failing smoke case names itself and what differed
     */
    public static PolicyOutcome<String> run(PolicyEvaluator evaluator, JsonNode smokeCases) {
        PolicyOutcome<String> fixed = fixed(evaluator);
        if (fixed instanceof PolicyOutcome.Failed<String>) {
            return fixed;
        }
        for (JsonNode smoke : smokeCases) {
            Optional<String> problem = smoke(evaluator, smoke);
            if (problem.isPresent()) {
                return fault(Entrypoint.DECISION, "smoke case " + smoke.path("name").asText("?") + ": "
                        + problem.get());
            }
        }
        return fixed;
    }

    private static Optional<String> smoke(PolicyEvaluator evaluator, JsonNode smoke) {
        if (!smoke.path("input").isObject() || !smoke.path("expected").isObject()) {
            return Optional.of("not {name, input, expected}");
        }
        ArrayNode expectedSet = PolicyJson.MAPPER.createArrayNode();
        expectedSet.addObject().set("result", smoke.get("expected"));
        PolicyOutcome<Decision> expected = DecisionParser.decision(new ResultSet(expectedSet, "expected"), 0);
        if (expected instanceof PolicyOutcome.Failed<Decision> failed) {
            return Optional.of("its expected decision is malformed: " + failed.fault().detail());
        }
        PolicyOutcome<ResultSet> answer = evaluator.evaluate(Entrypoint.DECISION,
                (ObjectNode) smoke.get("input").deepCopy());
        if (answer instanceof PolicyOutcome.Failed<ResultSet>) {
            return Optional.of(describe(answer));
        }
        PolicyOutcome<Decision> got = DecisionParser.decision(((PolicyOutcome.Decided<ResultSet>) answer).value(), 0);
        if (got instanceof PolicyOutcome.Failed<Decision>) {
            return Optional.of(describe(got));
        }
        Decision want = ((PolicyOutcome.Decided<Decision>) expected).value();
        Decision have = ((PolicyOutcome.Decided<Decision>) got).value();
        boolean same = want.allow() == have.allow() && codes(want).equals(codes(have))
                && want.obligations().equals(have.obligations());
        return same ? Optional.empty() : Optional.of("expected allow=" + want.allow() + " reasons=" + codes(want)
                + " obligations=" + want.obligations() + ", got allow=" + have.allow() + " reasons=" + codes(have)
                + " obligations=" + have.obligations());
    }

    private static Set<String> codes(Decision decision) {
        return decision.reasons().stream().map(Decision.Reason::code).collect(Collectors.toSet());
    }

    private static PolicyOutcome<String> fixed(PolicyEvaluator evaluator) {
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
                DecisionInputMapper.forListing(DecisionInput.forListing(CALLER)));
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
        boolean expected = !decision.allow() && decision.obligations().equals(Obligations.NONE);
        return expected ? Optional.empty()
                : Optional.of("expected a denial without obligations for a tool in no access table, got allow="
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
