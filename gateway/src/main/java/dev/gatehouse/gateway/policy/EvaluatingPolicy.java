package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.NoticeInput;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One activated revision of either engine, and the one call path of every engine: marshal
 * ({@link DecisionInputMapper}) → evaluate (the engine, {@link #evaluate}) → parse ({@link DecisionParser}). Engines
 * supply only {@link #evaluate}; the marshalling and the rules for what counts as an answer are the same for all.
 */
public abstract class EvaluatingPolicy implements ServedPolicy, PolicyEvaluator {

    private final String revision;
    private final Optional<String> keyId;
    private final Instant activatedAt;
    private final PolicyContents contents;

    /**
     * @param revision    the manifest revision
     * @param keyId       the id of the key that verified it, if known
     * @param activatedAt when this gateway activated it
     * @param contents    what the revision says the PEP enforces
     */
    protected EvaluatingPolicy(String revision, Optional<String> keyId, Instant activatedAt,
            PolicyContents contents) {
        this.revision = Objects.requireNonNull(revision, "revision");
        this.keyId = Objects.requireNonNull(keyId, "keyId");
        this.activatedAt = Objects.requireNonNull(activatedAt, "activatedAt");
        this.contents = Objects.requireNonNull(contents, "contents");
    }

    @Override
    public final String revision() {
        return revision;
    }

    @Override
    public final Optional<String> keyId() {
        return keyId;
    }

    @Override
    public final Instant activatedAt() {
        return activatedAt;
    }

    @Override
    public final PolicyContents contents() {
        return contents;
    }

    @Override
    public final PolicyOutcome<Decision> decide(DecisionInput input) {
        long start = System.nanoTime();
        return marshalled(() -> DecisionInputMapper.forCall(input), json -> decide(json, start));
    }

    @Override
    public final PolicyOutcome<Decision> decide(DecisionInput input, WrittenInput written) {
        return decide(written.json(), written.text(), System.nanoTime());
    }

    @Override
    public final PolicyOutcome<VisibleTools> visibleTools(DecisionInput input) {
        long start = System.nanoTime();
        return marshalled(() -> DecisionInputMapper.forListing(input), json -> visibleTools(json, start));
    }

    @Override
    public final PolicyOutcome<Decision> notice(NoticeInput input) {
        return notice(DecisionInputMapper.forNotice(input), System.nanoTime());
    }

    @Override
    public final PolicyOutcome<List<String>> heldCapabilities(DecisionInput input) {
        return marshalled(() -> DecisionInputMapper.forListing(input), json -> evaluateAndParse(
                Entrypoint.HELD_CAPABILITIES, json, null, DecisionParser::names, names -> revision));
    }

    /**
     * Evaluates the entry point at {@code path} on {@code input} as given and returns the policy's value unparsed (a
     * missing node when undefined): for a replay, which compares it with the value a record logged, and for a
     * matrix, which reads decisions and listings as OPA writes them.
     *
     * @return the value, or the engine's fault; a path that names no {@link Entrypoint} is
     *         {@link PolicyFault#EVALUATION_ERROR}
     */
    public final PolicyOutcome<JsonNode> evaluate(String path, ObjectNode input) {
        Optional<Entrypoint> entrypoint = Entrypoint.ofPath(path);
        if (entrypoint.isEmpty()) {
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.EVALUATION_ERROR,
                    "no entry point " + path));
        }
        PolicyOutcome<ResultSet> answer = evaluate(entrypoint.get(), input);
        if (answer instanceof PolicyOutcome.Failed<ResultSet> failed) {
            return new PolicyOutcome.Failed<>(failed.fault());
        }
        JsonNode value = ((PolicyOutcome.Decided<ResultSet>) answer).value().results().path(0).path("result");
        return new PolicyOutcome.Decided<>(value.isMissingNode() ? MissingNode.getInstance() : value);
    }

    /**
     * Decides on decision-input JSON as given. Package-private: production callers go through the typed
     * {@link #decide(DecisionInput)}; the golden replay also needs inputs the typed API cannot express (an absent
     * caller, a malformed wiki root).
     */
    final PolicyOutcome<Decision> decide(ObjectNode input, long startNanos) {
        return decide(input, null, startNanos);
    }

    /**
     * {@link #decide(ObjectNode, long)} for input whose JSON the caller has written already ({@code inputJson}:
     * exactly {@code PolicyJson.write(input)}, or null), so an engine that sends text does not write it again.
     */
    final PolicyOutcome<Decision> decide(ObjectNode input, String inputJson, long startNanos) {
        return evaluateAndParse(Entrypoint.DECISION, input, inputJson,
                result -> DecisionParser.decision(result, startNanos), Decision::bundleRevision);
    }

    /** Lists visible tools for decision-input JSON as given; package-private for the same reason. */
    final PolicyOutcome<VisibleTools> visibleTools(ObjectNode input, long startNanos) {
        return visibleTools(input, null, startNanos);
    }

    /** {@link #visibleTools(ObjectNode, long)} for input whose JSON is written already, as for {@link #decide}. */
    final PolicyOutcome<VisibleTools> visibleTools(ObjectNode input, String inputJson, long startNanos) {
        return evaluateAndParse(Entrypoint.VISIBLE_TOOLS, input, inputJson,
                result -> DecisionParser.visibleTools(result, startNanos), VisibleTools::bundleRevision);
    }

    /** Decides a notice on input JSON as given; package-private for the golden replay. */
    final PolicyOutcome<Decision> notice(ObjectNode input, long startNanos) {
        return evaluateAndParse(Entrypoint.NOTICE, input, null,
                result -> DecisionParser.decision(result, startNanos), Decision::bundleRevision);
    }

    /**
     * Sees the outcome of every evaluation after parsing. Engines whose health can change while running (the remote
     * one) track their status here; the default ignores it.
     *
     * @param outcome the bundle revision that decided, or the fault that kept the engine from deciding
     */
    protected void observe(PolicyOutcome<String> outcome) {
    }

    /**
     * Evaluates input whose JSON is written already ({@code inputJson}, exactly {@code PolicyJson.write(input)}).
     * Engines that send the input as text override it to send that text; the default evaluates the tree.
     */
    protected PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input, String inputJson) {
        return evaluate(entrypoint, input);
    }

    /**
     * The one path of every entry point: evaluate ({@code inputJson}: the input's JSON if written already, else
     * null), parse the result strictly, report the outcome to observe.
     */
    private <T> PolicyOutcome<T> evaluateAndParse(Entrypoint entrypoint, ObjectNode input, String inputJson,
            Function<ResultSet, PolicyOutcome<T>> parse, Function<T, String> revisionOf) {
        PolicyOutcome<ResultSet> answer = inputJson == null ? evaluate(entrypoint, input)
                : evaluate(entrypoint, input, inputJson);
        PolicyOutcome<T> outcome = answer instanceof PolicyOutcome.Decided<ResultSet> decided
                ? parse.apply(decided.value())
                : new PolicyOutcome.Failed<>(((PolicyOutcome.Failed<ResultSet>) answer).fault());
        observe(outcome instanceof PolicyOutcome.Decided<T> d
                ? new PolicyOutcome.Decided<>(revisionOf.apply(d.value()))
                : new PolicyOutcome.Failed<>(((PolicyOutcome.Failed<T>) outcome).fault()));
        return outcome;
    }

    /** Marshals the input, then evaluates; an input that cannot be written is this engine's fault, not the caller's. */
    private static <T> PolicyOutcome<T> marshalled(Supplier<ObjectNode> marshal,
            Function<ObjectNode, PolicyOutcome<T>> evaluate) {
        ObjectNode json;
        try {
            json = marshal.get();
        } catch (RuntimeException | StackOverflowError e) { // arguments nested too deep to serialise
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.EVALUATION_ERROR,
                    "the decision input cannot be serialised: " + e.getClass().getName()));
        }
        return evaluate.apply(json);
    }
}
