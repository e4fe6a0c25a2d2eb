package dev.gatehouse.facts;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Exactly what the PDP sees (schemas/decision-input.json), and nothing else. Built only by the PEP from the PIP's
 * facts and the request; serialised to JSON by one mapper in the policy package, never by hand (malformed input
 * JSON would silently evaluate as empty in the Wasm engine).
 *
 * @param tool           the called tool name, as received; empty for tools/list
 * @param arguments      the tool arguments as sent: the {@link SentArguments} of the call's {@link ArgumentFacts}, or
 *                       values already in their sent form (maps, lists, plain values, an {@link OmittedArgument} for a
 *                       string not sent; fixtures and tests), written as given; empty for tools/list
 * @param argumentErrors closed-schema violations found by the PEP; empty list when valid or for tools/list
 * @param argumentKeys   every member name of every object in the arguments, at any depth, with its folded form
 *                       (identity keys are matched by meaning, docs/domain.md §6)
 * @param caller         facts about the caller
 * @param targets        shells of the threads named by the row's threadFields, keyed by thread id
 * @param unicode        segment → sorted Unicode general categories of its characters other than {@code -_. },
 *                       for the segments of confined paths and the caller ids a wiki subtree is built from
 *                       ({@code logicalAgentId}, {@code sharesThreadAgent}) that are not plain ASCII name characters
 */
public record DecisionInput(Optional<String> tool, Optional<Object> arguments, List<ArgumentError> argumentErrors,
        List<ArgumentKeys.ArgumentKey> argumentKeys, CallerFacts caller, Map<String, ThreadShell> targets,
        Map<String, List<String>> unicode) {

    public DecisionInput {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(caller, "caller");
        argumentErrors = List.copyOf(argumentErrors);
        argumentKeys = List.copyOf(argumentKeys);
        targets = Map.copyOf(targets);
        unicode = Map.copyOf(unicode);
    }

    /** A tools/call input from the facts the PEP derived from its arguments ({@link ArgumentFacts}). */
    public DecisionInput(String tool, ArgumentFacts facts, CallerFacts caller, Map<String, ThreadShell> targets) {
        this(Optional.of(tool), Optional.of(facts.arguments()), facts.errors(), facts.keys(), caller, targets,
                facts.unicode());
    }

    /** A tools/call input whose argument keys are folded from {@code arguments} here (tests, fixtures). */
    public DecisionInput(Optional<String> tool, Optional<Object> arguments, List<ArgumentError> argumentErrors,
            CallerFacts caller, Map<String, ThreadShell> targets, Map<String, List<String>> unicode) {
        this(tool, arguments, argumentErrors, ArgumentKeys.of(arguments.orElse(null)), caller, targets, unicode);
    }

    /** The same, for paths and caller ids that are plain ASCII (no {@code unicode} facts). */
    public DecisionInput(Optional<String> tool, Optional<Object> arguments, List<ArgumentError> argumentErrors,
            CallerFacts caller, Map<String, ThreadShell> targets) {
        this(tool, arguments, argumentErrors, caller, targets, Map.of());
    }

    /** Input for tools/list: the caller only. */
    public static DecisionInput forListing(CallerFacts caller) {
        return new DecisionInput(Optional.empty(), Optional.empty(), List.of(), List.of(), caller, Map.of(), Map.of());
    }

    /**
     * One closed-schema violation, as a fact for the policy.
     *
     * @param keyword          the JSON Schema keyword that failed (e.g. {@code additionalProperties}, {@code type})
     * @param instanceLocation JSON Pointer to the failing value ({@code ""} for the arguments object)
     * @param property         the offending member name for {@code additionalProperties}/{@code required}
     * @param message          description without argument values
     */
    public record ArgumentError(String keyword, String instanceLocation, Optional<String> property, String message) {
    }
}
