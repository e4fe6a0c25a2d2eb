package dev.gatehouse.facts;

import dev.gatehouse.facts.DecisionInput.ArgumentError;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The arguments as the decision input carries them (docs/design.md "What a decision costs"): the policy reads
 * argument values only at the top-level members the access-table row names (thread, mode and path fields), and
 * every member name at any depth. So every other string longer than {@link ArgumentLimits#getOmitBytes()} is sent
 * as an {@link OmittedArgument} ({@code null}, and its length and SHA-256 under {@code omittedArguments}) and
 * everything else as received. The handler always gets the arguments as received; this is only what the PDP and the
 * decision log see.
 */
public final class DecisionArguments {

    private DecisionArguments() {
    }

    /**
     * What the decision input carries of one call's arguments.
     *
     * @param arguments the arguments to send, as described on {@link DecisionArguments}; beyond the envelope, only the
     *                  plain values of the fields the policy reads
     * @param errors    the closed-schema violations, or the one {@link ArgumentEnvelope#KEYWORD} error
     * @param keys      every member name of the arguments sent, at any depth, with its folds ({@link ArgumentKeys})
     */
    public record Prepared(SentArguments arguments, List<ArgumentError> errors, List<ArgumentKeys.ArgumentKey> keys) {

        public Prepared {
            Objects.requireNonNull(arguments, "arguments");
            errors = List.copyOf(errors);
            keys = List.copyOf(keys);
        }
    }

    /**
     * The PEP's one argument step, one walk over the arguments ({@link ArgumentWalk}): arguments beyond their schema's
     * {@link ArgumentEnvelope} are not valid whatever they hold, so they are not validated, and only the fields the
     * policy reads are sent, with one error saying why; any others are validated and sent as described on
     * {@link DecisionArguments}.
     *
     * @param schema     the tool's compiled schema; empty for a name no tool is served under (nothing is validated)
     * @param readFields the top-level members whose values the policy reads (the row's thread, mode, path fields)
     * @param arguments  the arguments as received (maps and lists of plain Java values, or any JSON value); not
     *                   changed
     */
    public static Prepared prepare(Optional<ToolSchema> schema, Set<String> readFields, Object arguments,
            ArgumentLimits limits) {
        ArgumentWalk.Walked walked = ArgumentWalk.of(schema.map(ToolSchema::envelope)
                .orElse(ArgumentEnvelope.UNDECLARED), readFields, arguments, limits);
        List<ArgumentError> errors = walked.beyond()
                .map(beyond -> List.of(new ArgumentError(ArgumentEnvelope.KEYWORD, "", Optional.empty(), beyond)))
                .orElseGet(() -> schema.map(s -> s.validator().check(arguments)).orElse(List.of()));
        return new Prepared(walked.arguments(), errors, walked.keys());
    }
}
