package dev.gatehouse.gateway.gate;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The largest arguments the PEP validates and sends for a tool, measured before any validation: the members and
 * array items at any depth (those the schema declares, plus {@link ArgumentLimits#getMaxUnknownMembers()} for a
 * wholly closed schema or {@link ArgumentLimits#getMaxOpenMembers()} when it has an open part), and the length of
 * member names. Arguments beyond it are not valid or exceed the gateway's limits, so the PEP neither validates nor
 * sends them (docs/design.md "What a decision costs"); the policy is told by one argument error.
 *
 * @param declared the members the schema declares, at any depth (each property of each object schema)
 * @param open     whether the schema has an object without {@code additionalProperties: false} or an array, whose
 *                 members are bounded only by {@link ArgumentLimits#getMaxOpenMembers()}
 */
public record ArgumentEnvelope(int declared, boolean open) {

    /**
     * The {@code keyword} of the argument error that reports arguments beyond the envelope: Gatehouse's own, not a
     * JSON Schema keyword (no one schema keyword counts members at every depth).
     */
    public static final String KEYWORD = "gatehouse:envelope";

    /** The envelope of a name no tool is registered under: nothing declared, everything open. */
    public static final ArgumentEnvelope UNDECLARED = new ArgumentEnvelope(0, true);

    /** The envelope of a JSON Schema given as JSON values ({@code Map}/{@code List}/scalars). */
    public static ArgumentEnvelope of(Map<String, Object> schema) {
        int declared = 0;
        boolean open = false;
        Deque<Object> pending = new ArrayDeque<>(List.of(schema));
        while (!pending.isEmpty()) {
            if (!(pending.pop() instanceof Map<?, ?> node)) {
                continue;
            }
            if (node.get("properties") instanceof Map<?, ?> properties) {
                declared += properties.size();
                pending.addAll(properties.values());
            }
            boolean object = "object".equals(node.get("type")) || node.containsKey("properties");
            open |= object && !Boolean.FALSE.equals(node.get("additionalProperties"));
            open |= "array".equals(node.get("type")) || node.containsKey("items");
        }
        return new ArgumentEnvelope(declared, open);
    }

    /**
     * Whether {@code arguments} exceed this envelope, counted without recursion and stopping at the first member
     * over the bound, so the work is bounded by the envelope and not by the arguments.
     *
     * @return a message naming the bound that was exceeded, without argument values; empty when within it
     */
    public Optional<String> exceeded(Object arguments, ArgumentLimits limits) {
        long bound = bound(limits);
        long members = 0;
        Deque<Object> pending = new ArrayDeque<>();
        pending.push(arguments);
        while (!pending.isEmpty()) {
            Object value = pending.pop();
            if (value instanceof Map<?, ?> map) {
                members += map.size();
                if (members > bound) {
                    return Optional.of(tooWide(bound, limits));
                }
                for (Map.Entry<?, ?> member : map.entrySet()) {
                    String name = String.valueOf(member.getKey());
                    if (name.codePointCount(0, name.length()) > limits.getMaxNameLength()) {
                        return Optional.of("arguments: a member name is longer than " + limits.getMaxNameLength()
                                + " characters");
                    }
                    pending.push(member.getValue());
                }
            } else if (value instanceof List<?> list) {
                members += list.size();
                if (members > bound) {
                    return Optional.of(tooWide(bound, limits));
                }
                list.forEach(pending::push);
            }
        }
        return Optional.empty();
    }

    /** The most members and array items, at any depth, arguments within this envelope hold. */
    public long bound(ArgumentLimits limits) {
        return declared + (long) (open ? limits.getMaxOpenMembers() : limits.getMaxUnknownMembers());
    }

    private String tooWide(long bound, ArgumentLimits limits) {
        return "arguments: more than " + bound + " members and array items at any depth (the schema declares "
                + declared + (open ? ", business data may add " + limits.getMaxOpenMembers()
                : ", and up to " + limits.getMaxUnknownMembers() + " unknown ones are reported") + ")";
    }
}
