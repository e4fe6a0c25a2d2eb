package dev.gatehouse.facts;

import dev.gatehouse.facts.DecisionInput.ArgumentError;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything the PEP derives from one call's arguments, computed one way for every consumer (the gateway, the review
 * CLI, the benches and the tests), so each of them decides every input alike (docs/design.md, "Decision contract"):
 *
 * @param arguments the arguments as the decision input carries them ({@link DecisionArguments}: long strings the
 *                  policy does not read as {@link OmittedArgument}; beyond the envelope, only the fields it reads),
 *                  built as its JSON by the one walk over the arguments ({@link ArgumentWalk})
 * @param errors    the closed-schema violations, or the one envelope error
 * @param keys      every member name of the sent arguments, at any depth, with its fold ({@link ArgumentKeys})
 * @param unicode   the Unicode categories of the confined path segments and of the ids a subtree is built from
 *                  ({@link SegmentCharacters})
 */
public record ArgumentFacts(SentArguments arguments, List<ArgumentError> errors, List<ArgumentKeys.ArgumentKey> keys,
        Map<String, List<String>> unicode) {

    public ArgumentFacts {
        Objects.requireNonNull(arguments, "arguments");
        errors = List.copyOf(errors);
        keys = List.copyOf(keys);
        unicode = Map.copyOf(unicode);
    }

    /**
     * The facts of one call.
     *
     * @param schema     the tool's compiled schema; empty for a name no tool is served under
     * @param row        the tool's access-table row; empty for such a name
     * @param arguments  the arguments as received (maps and lists of plain Java values, or any JSON value)
     * @param limits     how much of the arguments is validated and sent
     * @param subtreeIds the caller ids a wiki subtree is built from ({@link CallerFacts#subtreeIds()})
     */
    public static ArgumentFacts of(Optional<ToolSchema> schema, Optional<AccessRow> row, Object arguments,
            ArgumentLimits limits, Collection<String> subtreeIds) {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(row, "row");
        DecisionArguments.Prepared prepared = DecisionArguments.prepare(schema,
                row.map(AccessRow::readFields).orElse(Set.of()), arguments, limits);
        // Described from the arguments as sent: a path too long to be sent is described neither, so its fact
        // cannot carry it to the engine and the decision log in its place.
        return new ArgumentFacts(prepared.arguments(), prepared.errors(), prepared.keys(),
                SegmentCharacters.of(prepared.arguments().json().orElse(null),
                        row.map(AccessRow::pathFields).orElse(List.of()), subtreeIds));
    }
}
