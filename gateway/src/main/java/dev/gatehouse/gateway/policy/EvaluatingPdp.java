package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.util.function.Function;

/**
 * The one call path of every engine: marshal ({@link DecisionInputMapper}) → evaluate (the engine) → parse
 * ({@link DecisionParser}). Engines supply only {@link #evaluate}; the marshalling and the rules for what counts as
 * an answer are the same for all of them.
 */
public abstract class EvaluatingPdp implements PolicyDecisionPoint, PolicyEvaluator {

    @Override
    public final PolicyOutcome<Decision> decide(DecisionInput input) {
        long start = System.nanoTime();
        ObjectNode json;
        try {
            json = DecisionInputMapper.forCall(input);
        } catch (RuntimeException | StackOverflowError e) { // arguments nested too deep to serialise
            return unserialisable(e);
        }
        return decide(json, start);
    }

    @Override
    public final PolicyOutcome<VisibleTools> visibleTools(DecisionInput input) {
        long start = System.nanoTime();
        ObjectNode json;
        try {
            json = DecisionInputMapper.forListing(input);
        } catch (RuntimeException | StackOverflowError e) {
            return unserialisable(e);
        }
        return visibleTools(json, start);
    }

    /**
     * A policy document for the admin read API ({@link Entrypoint#ACCESS_TABLE}, {@link Entrypoint#HELD_CAPABILITIES}):
     * the value the policy gives for {@code input}'s caller, with the bundle revision that gave it.
     *
     * @return the value, or the fault (undefined, several results, an engine error) that kept it from answering
     */
    public final PolicyOutcome<PolicyDocument> document(Entrypoint entrypoint, DecisionInput input) {
        PolicyOutcome<ResultSet> answer = evaluate(entrypoint, DecisionInputMapper.forListing(input));
        if (answer instanceof PolicyOutcome.Failed<ResultSet> failed) {
            return new PolicyOutcome.Failed<>(failed.fault());
        }
        return DecisionParser.document(((PolicyOutcome.Decided<ResultSet>) answer).value());
    }

    /**
     * Decides whether one Project Work notice may be delivered ({@link Entrypoint#NOTICE}, docs/domain.md §9), on the
     * input {@code {"notice": {...}}} built from typed facts by the notice package. The answer has the shape of a
     * tools/call decision; its only obligation is {@code modes} ({@code runtimeMode}, {@code interactionMode}) when a
     * thread must be created. Never throws: a fault is {@link PolicyOutcome.Failed}, which never delivers.
     */
    public final PolicyOutcome<Decision> notice(ObjectNode input) {
        long start = System.nanoTime();
        return evaluateAndParse(Entrypoint.NOTICE, input, result -> DecisionParser.decision(result, start),
                Decision::bundleRevision);
    }

    /**
     * Decides on decision-input JSON as given. Package-private: production callers go through the typed
     * {@link #decide(DecisionInput)}; the golden replay also needs inputs the typed API cannot express (an absent
     * caller, a malformed wiki root).
     */
    final PolicyOutcome<Decision> decide(ObjectNode input, long startNanos) {
        return evaluateAndParse(Entrypoint.DECISION, input, result -> DecisionParser.decision(result, startNanos),
                Decision::bundleRevision);
    }

    /** Lists visible tools for decision-input JSON as given; package-private for the same reason. */
    final PolicyOutcome<VisibleTools> visibleTools(ObjectNode input, long startNanos) {
        return evaluateAndParse(Entrypoint.VISIBLE_TOOLS, input,
                result -> DecisionParser.visibleTools(result, startNanos), VisibleTools::bundleRevision);
    }

    /** The one path of both entry points: evaluate, parse the result strictly, report the outcome to observe. */
    private <T> PolicyOutcome<T> evaluateAndParse(Entrypoint entrypoint, ObjectNode input,
            Function<ResultSet, PolicyOutcome<T>> parse, Function<T, String> revision) {
        PolicyOutcome<ResultSet> answer = evaluate(entrypoint, input);
        PolicyOutcome<T> outcome = answer instanceof PolicyOutcome.Decided<ResultSet> decided
                ? parse.apply(decided.value())
                : new PolicyOutcome.Failed<>(((PolicyOutcome.Failed<ResultSet>) answer).fault());
        observe(outcome instanceof PolicyOutcome.Decided<T> d
                ? new PolicyOutcome.Decided<>(revision.apply(d.value()))
                : new PolicyOutcome.Failed<>(((PolicyOutcome.Failed<T>) outcome).fault()));
        return outcome;
    }

    /**
     * Sees the outcome of every evaluation after parsing. Engines whose health can change while running (the remote
     * one) track {@link #status()} here; the default ignores it.
     *
     * @param outcome the bundle revision that decided, or the fault that kept the engine from deciding
     */
    protected void observe(PolicyOutcome<String> outcome) {
    }

    private static <T> PolicyOutcome<T> unserialisable(Throwable e) {
        return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.EVALUATION_ERROR,
                "the decision input cannot be serialised: " + e.getClass().getName()));
    }
}
