package dev.gatehouse.facts;

import java.nio.charset.StandardCharsets;
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
 * error ({@link #KEYWORD}). The arguments are measured in the one walk over them ({@link ArgumentWalk}), which stops
 * at the first member over a bound, so the work is bounded by the limits and not by the arguments.
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
    enum Part { DECLARED, UNKNOWN, BUSINESS }

    private final Map<?, ?> schema;

    private ArgumentEnvelope(Map<?, ?> schema) {
        this.schema = schema;
    }

    /** The envelope of a JSON Schema given as JSON values ({@code Map}/{@code List}/scalars). */
    public static ArgumentEnvelope of(Map<String, Object> schema) {
        return new ArgumentEnvelope(Objects.requireNonNull(schema, "schema"));
    }

    /**
     * Whether {@code value}, given for the top-level member {@code field}, is no longer than the schema admits there
     * ({@link Place#overLong}); a longer value of a field the policy reads is not sent (docs/design.md, "What a
     * decision costs").
     */
    public boolean admits(String field, String value) {
        return !root().member(field).overLong(value);
    }

    /** The place of the arguments themselves. */
    Place root() {
        return new Place(schema, schema == null ? Part.BUSINESS : Part.DECLARED);
    }

    /**
     * Where a value of the arguments sits against the schema.
     *
     * @param schema the schema that applies to it; {@code null} when none does
     * @param part   the part it belongs to
     */
    record Place(Object schema, Part part) {

        /**
         * The place of the member {@code name} of an object here: declared where the schema declares it; else
         * business data under an open object, unknown under a closed one, and below either, the part of its parent.
         */
        Place member(String name) {
            if (part != Part.DECLARED) {
                return new Place(null, part);
            }
            Object declared = schema instanceof Map<?, ?> s && s.get("properties") instanceof Map<?, ?> p
                    ? p.get(name) : null;
            if (declared != null) {
                return new Place(declared, Part.DECLARED);
            }
            return new Place(null, closed(schema) ? Part.UNKNOWN : Part.BUSINESS);
        }

        /** The place of an array's items here: no tool schema declares an array; its items are its kind of data. */
        Place items() {
            return new Place(null, part == Part.DECLARED ? Part.UNKNOWN : part);
        }

        /**
         * Whether {@code text} is longer, in code points, than any string the schema here admits: over its
         * {@code maxLength}, or, for an {@code enum} of strings, over the longest of them. Such a value is not valid
         * whatever it holds; false where the schema sets neither.
         */
        boolean overLong(String text) {
            if (!(schema instanceof Map<?, ?> s)) {
                return false;
            }
            long longest = -1;
            if (s.get("maxLength") instanceof Number max) {
                longest = max.longValue();
            } else if (s.get("enum") instanceof List<?> values && !values.isEmpty()
                    && values.stream().allMatch(String.class::isInstance)) {
                longest = values.stream().mapToLong(v -> ((String) v).codePointCount(0, ((String) v).length()))
                        .max().orElseThrow();
            }
            return longest >= 0 && text.length() > longest && text.codePointCount(0, text.length()) > longest;
        }
    }

    /** Whether an object schema admits only its declared members. */
    private static boolean closed(Object schema) {
        return schema instanceof Map<?, ?> s && Boolean.FALSE.equals(s.get("additionalProperties"));
    }

    /**
     * The count of one walk over a call's arguments ({@link ArgumentWalk}), member by member: each method says which
     * bound the member or item just counted exceeds, if any, so the walk stops at the first one over.
     */
    static final class Tally {

        private final ArgumentLimits limits;
        private final long[] counted = new long[Part.values().length];
        private long nameBytes;

        Tally(ArgumentLimits limits) {
            this.limits = limits;
        }

        /** Counts a member named {@code name} of {@code part}: its name first, then the member. */
        Optional<String> member(String name, Part part) {
            nameBytes += name.getBytes(StandardCharsets.UTF_8).length;
            if (nameBytes > limits.getMaxNamesBytes()) {
                return Optional.of("arguments: member names longer than " + limits.getMaxNamesBytes()
                        + " bytes of UTF-8 in all");
            }
            return item(part);
        }

        /** Counts an array item of {@code part}. */
        Optional<String> item(Part part) {
            counted[part.ordinal()]++;
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
}
