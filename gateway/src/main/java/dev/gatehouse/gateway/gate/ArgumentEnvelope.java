package dev.gatehouse.gateway.gate;

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
        long unknown = 0;
        long business = 0;
        long nameBytes = 0;
        Deque<Object[]> pending = new ArrayDeque<>(); // {value, its schema or null, part}; ArrayDeque takes no null
        pending.push(new Object[] {arguments, schema, schema == null ? Part.BUSINESS : Part.DECLARED});
        while (!pending.isEmpty()) {
            Object[] next = pending.pop();
            Part part = (Part) next[2];
            if (next[0] instanceof Map<?, ?> map) {
                Map<?, ?> properties = part == Part.DECLARED && next[1] instanceof Map<?, ?> s
                        && s.get("properties") instanceof Map<?, ?> p ? p : Map.of();
                Part undeclared = part == Part.DECLARED && !closed(next[1]) ? Part.BUSINESS
                        : part == Part.DECLARED ? Part.UNKNOWN : part;
                for (Map.Entry<?, ?> member : map.entrySet()) {
                    String name = String.valueOf(member.getKey());
                    nameBytes += name.getBytes(StandardCharsets.UTF_8).length;
                    if (nameBytes > limits.getMaxNamesBytes()) {
                        return Optional.of("arguments: member names longer than " + limits.getMaxNamesBytes()
                                + " bytes of UTF-8 in all");
                    }
                    Object declared = part == Part.DECLARED ? properties.get(name) : null;
                    Part child = declared != null ? Part.DECLARED : undeclared;
                    unknown += child == Part.UNKNOWN ? 1 : 0;
                    business += child == Part.BUSINESS ? 1 : 0;
                    Optional<String> over = over(unknown, business, limits);
                    if (over.isPresent()) {
                        return over;
                    }
                    pending.push(new Object[] {member.getValue(), declared, child});
                }
            } else if (next[0] instanceof List<?> list) {
                // No tool schema declares an array; its items are the array member's kind of data.
                Part items = part == Part.DECLARED ? Part.UNKNOWN : part;
                for (Object item : list) {
                    unknown += items == Part.UNKNOWN ? 1 : 0;
                    business += items == Part.BUSINESS ? 1 : 0;
                    Optional<String> over = over(unknown, business, limits);
                    if (over.isPresent()) {
                        return over;
                    }
                    pending.push(new Object[] {item, null, items});
                }
            }
        }
        return Optional.empty();
    }

    /** Whether an object schema admits only its declared members. */
    private static boolean closed(Object schema) {
        return schema instanceof Map<?, ?> s && Boolean.FALSE.equals(s.get("additionalProperties"));
    }

    private static Optional<String> over(long unknown, long business, ArgumentLimits limits) {
        if (unknown > limits.getMaxUnknownMembers()) {
            return Optional.of("arguments: more than " + limits.getMaxUnknownMembers()
                    + " members and array items the schema does not declare, at any depth");
        }
        if (business > limits.getMaxOpenMembers()) {
            return Optional.of("arguments: more than " + limits.getMaxOpenMembers()
                    + " members and array items of business data, at any depth");
        }
        return Optional.empty();
    }
}
