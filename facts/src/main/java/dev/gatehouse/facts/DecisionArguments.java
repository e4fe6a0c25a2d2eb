package dev.gatehouse.facts;

import dev.gatehouse.facts.DecisionInput.ArgumentError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The arguments as the decision input carries them (docs/design.md "What a decision costs"): the policy reads
 * argument values only at the top-level members the access-table row names (thread, mode and path fields), and
 * every member name at any depth. So every other string longer than {@link ArgumentLimits#getOmitBytes()} is sent
 * as an {@link OmittedArgument} (its length and SHA-256) and everything else as received. The handler always gets
 * the arguments as received; this is only what the PDP and the decision log see.
 */
public final class DecisionArguments {

    private DecisionArguments() {
    }

    /**
     * What the decision input carries of one call's arguments.
     *
     * @param arguments the arguments to send, as {@link #of} or, beyond the envelope, {@link #readOnly} makes them
     * @param errors    the closed-schema violations, or the one {@link ArgumentEnvelope#KEYWORD} error
     */
    public record Prepared(Object arguments, List<ArgumentError> errors) {

        public Prepared {
            errors = List.copyOf(errors);
        }
    }

    /**
     * The PEP's one argument step: arguments beyond their schema's {@link ArgumentEnvelope} are not valid whatever
     * they hold, so they are not validated, and only the fields the policy reads are sent, with one error saying
     * why; any others are validated and sent as {@link #of} makes them.
     *
     * @param schema     the tool's compiled schema; empty for a name no tool is served under (nothing is validated)
     * @param readFields the top-level members whose values the policy reads (the row's thread, mode, path fields)
     * @param arguments  the arguments as received
     */
    public static Prepared prepare(Optional<ToolSchema> schema, Set<String> readFields, Object arguments,
            ArgumentLimits limits) {
        Optional<String> beyond = schema.map(ToolSchema::envelope).orElse(ArgumentEnvelope.UNDECLARED)
                .exceeded(arguments, limits);
        if (beyond.isPresent()) {
            return new Prepared(readOnly(arguments, readFields),
                    List.of(new ArgumentError(ArgumentEnvelope.KEYWORD, "", Optional.empty(), beyond.get())));
        }
        return new Prepared(of(arguments, readFields, limits.getOmitBytes()),
                schema.map(s -> s.validator().check(arguments)).orElse(List.of()));
    }

    /**
     * @param arguments  the arguments as received (maps and lists of plain Java values, or any JSON value)
     * @param readFields the top-level members whose values the policy reads; empty for an unknown tool
     * @param omitBytes  the longest other string sent, in UTF-8 bytes
     * @return a copy with the long unread strings replaced; the arguments themselves are not changed
     */
    static Object of(Object arguments, Set<String> readFields, int omitBytes) {
        if (arguments instanceof Map<?, ?> map) {
            Map<Object, Object> sent = new LinkedHashMap<>();
            map.forEach((name, value) -> sent.put(name,
                    readFields.contains(name) && plain(value) ? value : below(value, omitBytes)));
            return sent;
        }
        return below(arguments, omitBytes);
    }

    /**
     * Only the top-level members the policy reads, and only their plain values: what is sent for arguments beyond
     * their {@link ArgumentEnvelope}, so the policy still checks the paths, modes and threads the call names.
     */
    static Map<Object, Object> readOnly(Object arguments, Set<String> readFields) {
        Map<Object, Object> sent = new LinkedHashMap<>();
        if (arguments instanceof Map<?, ?> map) {
            // By the fields, not the members: arguments beyond the envelope may hold any number of them.
            for (String field : readFields) {
                Object value = map.get(field);
                if (plain(value)) {
                    sent.put(field, value);
                }
            }
        }
        return sent;
    }

    /** A value that is neither absent, {@code null}, an object nor an array. */
    private static boolean plain(Object value) {
        return value != null && !(value instanceof Map || value instanceof List);
    }

    /** {@code value} with every string in it longer than {@code omitBytes} replaced, at any depth. */
    private static Object below(Object value, int omitBytes) {
        // Depth is bounded by the members the envelope admits (each level is one), long before the Java stack.
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((name, member) -> copy.put(name, below(member, omitBytes)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(below(item, omitBytes)));
            return copy;
        }
        if (value instanceof String text) {
            return OmittedArgument.ifLonger(text, omitBytes).<Object>map(omitted -> omitted).orElse(text);
        }
        return value;
    }
}
