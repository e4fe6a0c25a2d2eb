package dev.gatehouse.facts;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The largest arguments the PEP validates and sends for a tool, measured against its schema before any validation
 * (docs/design.md "What a decision costs"), walking the arguments and the schema together:
 * <ul>
 * <li>members and array items the schema does not declare, at any depth (under a closed object, or below such a
 * member): at most {@link ArgumentLimits#getMaxUnknownMembers()}, so a call with a few wrong members is still told
 * which;</li>
 * <li>members and items of business data (below an object the schema leaves open, such as
 * {@code project_work_submit}'s {@code result}; everything, for a name no tool is registered under): at most
 * {@link ArgumentLimits#getMaxOpenMembers()};</li>
 * <li>the member names, at any depth: at most {@link ArgumentLimits#getMaxNamesBytes()} UTF-8 bytes in all.</li>
 * </ul>
 * Declared members are not counted: a schema admits each once. Arguments beyond the envelope are not valid or
 * exceed the gateway's limits, so the PEP neither validates nor sends them; the policy is told by one argument
 * error ({@link #KEYWORD}).
 */
public final class ArgumentEnvelope {

    /**
     * The {@code keyword} of the argument error that reports arguments beyond the envelope: Gatehouse's own, not a
     * JSON Schema keyword (no one schema keyword counts members at every depth).
     */
    public static final String KEYWORD = "gatehouse:envelope";

    /** The envelope of a name no tool is registered under: every member is business data. */
    public static final ArgumentEnvelope UNDECLARED = new ArgumentEnvelope(null);

    /** Where a value sits: under the schema, below an undeclared member, or in business data. */
    private enum Part { DECLARED, UNKNOWN, BUSINESS }

    private final Map<?, ?> schema;

    private ArgumentEnvelope(Map<?, ?> schema) {
        this.schema = schema;
    }

    /** The envelope of a JSON Schema given as JSON values ({@code Map}/{@code List}/scalars). */
    public static ArgumentEnvelope of(Map<String, Object> schema) {
        return new ArgumentEnvelope(Objects.requireNonNull(schema, "schema"));
    }

    /**
     * Whether {@code arguments} exceed this envelope. Stops at the first member over a bound, so the work is
     * bounded by the limits and not by the arguments.
     *
     * @param arguments the arguments as received (maps and lists of plain Java values, {@code null} allowed)
     * @return a message naming the bound that was exceeded, without argument values; empty when within it
     */
    public Optional<String> exceeded(Object arguments, ArgumentLimits limits) {
        long[] counted = new long[Part.values().length];
        long nameBytes = 0;
        Deque<Pending> pending = new ArrayDeque<>();
        pending.push(new Pending(arguments, schema, schema == null ? Part.BUSINESS : Part.DECLARED));
        while (!pending.isEmpty()) {
            Pending next = pending.pop();
            if (next.value() instanceof Map<?, ?> map) {
                Map<?, ?> properties = next.part() == Part.DECLARED && next.schema() instanceof Map<?, ?> s
                        && s.get("properties") instanceof Map<?, ?> p ? p : Map.of();
                for (Map.Entry<?, ?> member : map.entrySet()) {
                    String name = String.valueOf(member.getKey());
                    nameBytes += name.getBytes(StandardCharsets.UTF_8).length;
                    if (nameBytes > limits.getMaxNamesBytes()) {
                        return Optional.of("arguments: member names longer than " + limits.getMaxNamesBytes()
                                + " bytes of UTF-8 in all");
                    }
                    Object declared = properties.get(name);
                    Part child = declared != null ? Part.DECLARED : undeclaredMember(next);
                    counted[child.ordinal()]++;
                    Optional<String> over = over(counted, limits);
                    if (over.isPresent()) {
                        return over;
                    }
                    pending.push(new Pending(member.getValue(), declared, child));
                }
            } else if (next.value() instanceof List<?> list) {
                // No tool schema declares an array; its items are the array member's kind of data.
                Part items = next.part() == Part.DECLARED ? Part.UNKNOWN : next.part();
                for (Object item : list) {
                    counted[items.ordinal()]++;
                    Optional<String> over = over(counted, limits);
                    if (over.isPresent()) {
                        return over;
                    }
                    pending.push(new Pending(item, null, items));
                }
            }
        }
        return Optional.empty();
    }

    /** A value still to measure: its schema ({@code null} when none applies) and the part it belongs to. */
    private record Pending(Object value, Object schema, Part part) {
    }

    /**
     * The part of a member the schema does not declare: business data under an open object, unknown under a closed
     * one, and below either, the part of its parent.
     */
    private static Part undeclaredMember(Pending parent) {
        if (parent.part() != Part.DECLARED) {
            return parent.part();
        }
        return closed(parent.schema()) ? Part.UNKNOWN : Part.BUSINESS;
    }

    /** Whether an object schema admits only its declared members. */
    private static boolean closed(Object schema) {
        return schema instanceof Map<?, ?> s && Boolean.FALSE.equals(s.get("additionalProperties"));
    }

    private static Optional<String> over(long[] counted, ArgumentLimits limits) {
        if (counted[Part.UNKNOWN.ordinal()] > limits.getMaxUnknownMembers()) {
            return Optional.of("arguments: more than " + limits.getMaxUnknownMembers()
                    + " members and array items the schema does not declare, at any depth");
        }
        if (counted[Part.BUSINESS.ordinal()] > limits.getMaxOpenMembers()) {
            return Optional.of("arguments: more than " + limits.getMaxOpenMembers()
                    + " members and array items of business data, at any depth");
        }
        return Optional.empty();
    }
}
