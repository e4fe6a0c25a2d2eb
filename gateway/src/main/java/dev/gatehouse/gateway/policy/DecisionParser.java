package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Decision.Reason;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a raw {@link ResultSet} into a decision, shared by both engines so they understand exactly the same shapes.
 * Anything but the documented shape is a fault, never a guess (style card 2; OPA {@code ResultSet.Allowed},
 * opa-envoy-plugin {@code IsAllowed}):
 * <ul>
 *   <li>{@code []} → {@link PolicyFault#UNDEFINED};</li>
 *   <li>more than one result, an element other than {@code {"result": value}}, or a value that does not match
 *       schemas/decision.json exactly (allow a JSON boolean; reasons a list of {@code {code, message}} strings;
 *       obligations an object with optional {@code modes} and {@code wikiPaths}, each an object of strings keyed by
 *       argument field, an optional string {@code wikiRoot} and an optional {@code quota} of exactly {@code bucket}
 *       and {@code class} (non-empty strings, the bucket at most {@value Quota#MAX_BUCKET_CHARS} characters) and
 *       {@code ratePerMinute} and {@code burst} (whole JSON numbers from 1 to {@value Quota#MAX_TOKENS}); no other
 *       members) →
 *       {@link PolicyFault#MALFORMED_RESULT};</li>
 *   <li>{@code allow: true} with reasons, or {@code allow: false} without any → {@link PolicyFault#MALFORMED_RESULT}
 *       (the policy guarantees allow ⇔ no reasons, so a break means the bundle is not the one we test);</li>
 *   <li>visible_tools must be an array of distinct strings (a set, serialised); it is returned sorted, so every
 *       engine's answer reads the same.</li>
 * </ul>
 * Reason codes are not checked against the enum in the schema: a new code is a policy change, not a malformed
 * answer. The detail of a fault describes the shape, never the input.
 */
public final class DecisionParser {

    private static final Set<String> DECISION_MEMBERS = Set.of("allow", "reasons", "obligations");
    private static final Set<String> REASON_MEMBERS = Set.of("code", "message");
    private static final Set<String> OBLIGATION_MEMBERS = Set.of("modes", "wikiPaths", "wikiRoot", "quota");
    private static final Set<String> QUOTA_MEMBERS = Set.of("bucket", "class", "ratePerMinute", "burst");

    private DecisionParser() {
    }

    /**
     * Parses the answer of {@code gatehouse/authz/decision}.
     *
     * @param answer     the engine's result set and bundle revision
     * @param startNanos {@link System#nanoTime()} when the caller started marshalling; sets {@code evalMicros}
     */
    public static PolicyOutcome<Decision> decision(ResultSet answer, long startNanos) {
        Optional<JsonNode> single;
        try {
            single = singleValue(answer.results());
        } catch (Malformed e) {
            return malformed(e.getMessage());
        }
        if (single.isEmpty()) {
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.UNDEFINED, "decision is undefined"));
        }
        try {
            JsonNode value = single.get();
            requireObjectWith(value, DECISION_MEMBERS, DECISION_MEMBERS, "decision");
            JsonNode allow = value.get("allow");
            if (!allow.isBoolean()) {
                throw new Malformed("allow is not a JSON boolean");
            }
            List<Reason> reasons = reasons(value.get("reasons"));
            if (allow.booleanValue() == !reasons.isEmpty()) {
                throw new Malformed(allow.booleanValue() ? "allowed with reasons" : "denied without reasons");
            }
            Obligations obligations = obligations(value.get("obligations"));
            return new PolicyOutcome.Decided<>(new Decision(allow.booleanValue(), reasons, obligations,
                    answer.revision(), micros(startNanos), answer.keyId()));
        } catch (Malformed e) {
            return malformed(e.getMessage());
        }
    }

    /**
     * Parses the answer of {@code gatehouse/authz/visible_tools}: a set of names, as an array of distinct strings;
     * returned sorted by name.
     *
     * @param answer     the engine's result set and bundle revision
     * @param startNanos {@link System#nanoTime()} when the caller started marshalling
     */
    public static PolicyOutcome<VisibleTools> visibleTools(ResultSet answer, long startNanos) {
        PolicyOutcome<List<String>> names = names(answer);
        return names instanceof PolicyOutcome.Decided<List<String>> decided
                ? new PolicyOutcome.Decided<>(new VisibleTools(decided.value(), answer.revision(), micros(startNanos),
                        answer.keyId()))
                : new PolicyOutcome.Failed<>(((PolicyOutcome.Failed<List<String>>) names).fault());
    }

    /**
     * Parses a set of names (visible tools, held capability scopes): an array of distinct strings, returned sorted.
     *
     * @param answer the engine's result set
     */
    public static PolicyOutcome<List<String>> names(ResultSet answer) {
        try {
            Optional<JsonNode> single = singleValue(answer.results());
            if (single.isEmpty()) {
                return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.UNDEFINED, "the set is undefined"));
            }
            JsonNode value = single.get();
            if (!value.isArray()) {
                throw new Malformed("the set is not an array");
            }
            TreeSet<String> names = new TreeSet<>();
            for (JsonNode name : value) {
                if (!name.isTextual() || !names.add(name.textValue())) {
                    throw new Malformed("the set holds a non-string or a name twice");
                }
            }
            return new PolicyOutcome.Decided<>(List.copyOf(names));
        } catch (Malformed e) {
            return malformed(e.getMessage());
        }
    }

    /** The value of a document entrypoint: exactly one result, any JSON value; undefined or several is a fault. */
    public static PolicyOutcome<PolicyDocument> document(ResultSet answer) {
        try {
            Optional<JsonNode> single = singleValue(answer.results());
            if (single.isEmpty()) {
                return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.UNDEFINED, "the document is undefined"));
            }
            return new PolicyOutcome.Decided<>(new PolicyDocument(single.get(), answer.revision()));
        } catch (Malformed e) {
            return malformed(e.getMessage());
        }
    }

    /** The value of the one result, or empty when undefined. */
    private static Optional<JsonNode> singleValue(JsonNode results) throws Malformed {
        if (!results.isArray()) {
            throw new Malformed("result set is not an array");
        }
        if (results.isEmpty()) {
            return Optional.empty();
        }
        if (results.size() > 1) {
            throw new Malformed("result set has " + results.size() + " results");
        }
        JsonNode only = results.get(0);
        if (!only.isObject() || only.size() != 1 || !only.has("result")) {
            throw new Malformed("result is not {\"result\": value}");
        }
        return Optional.of(only.get("result"));
    }

    private static List<Reason> reasons(JsonNode reasons) throws Malformed {
        if (!reasons.isArray()) {
            throw new Malformed("reasons is not an array");
        }
        List<Reason> parsed = new ArrayList<>(reasons.size());
        for (JsonNode reason : reasons) {
            requireObjectWith(reason, REASON_MEMBERS, REASON_MEMBERS, "reason");
            parsed.add(new Reason(text(reason, "code"), text(reason, "message")));
        }
        return parsed;
    }

    private static Obligations obligations(JsonNode obligations) throws Malformed {
        requireObjectWith(obligations, Set.of(), OBLIGATION_MEMBERS, "obligations");
        Map<String, String> modes = fieldMap(obligations, "modes");
        Map<String, String> wikiPaths = fieldMap(obligations, "wikiPaths");
        Optional<String> wikiRoot = obligations.has("wikiRoot") ? Optional.of(text(obligations, "wikiRoot"))
                : Optional.empty();
        Optional<Quota> quota = obligations.has("quota") ? Optional.of(quota(obligations.get("quota")))
                : Optional.empty();
        return modes.isEmpty() && wikiPaths.isEmpty() && wikiRoot.isEmpty() && quota.isEmpty() ? Obligations.NONE
                : new Obligations(modes, wikiPaths, wikiRoot, quota);
    }

    /** The quota obligation, exactly its four members; a number must be a whole one in range, never rounded. */
    private static Quota quota(JsonNode quota) throws Malformed {
        requireObjectWith(quota, QUOTA_MEMBERS, QUOTA_MEMBERS, "obligations.quota");
        String bucket = text(quota, "bucket");
        String bucketClass = text(quota, "class");
        if (bucket.isEmpty() || bucket.length() > Quota.MAX_BUCKET_CHARS || bucketClass.isEmpty()) {
            throw new Malformed("obligations.quota names an empty or too long bucket or class");
        }
        return new Quota(bucket, bucketClass, tokens(quota, "ratePerMinute"), tokens(quota, "burst"));
    }

    private static long tokens(JsonNode quota, String member) throws Malformed {
        JsonNode value = quota.get(member);
        // 5.0 is a whole number in JSON (OPA writes integral floats without a fraction); 5.5, 0 and 10^10 are not.
        if (!value.isNumber() || value.decimalValue().stripTrailingZeros().scale() > 0
                || value.decimalValue().compareTo(BigDecimal.ONE) < 0
                || value.decimalValue().compareTo(BigDecimal.valueOf(Quota.MAX_TOKENS)) > 0) {
            throw new Malformed("obligations.quota." + member + " is not a whole number from 1 to " + Quota.MAX_TOKENS);
        }
        return value.longValue();
    }

    /** An optional member that maps argument fields to strings; which fields a row needs is the gate's check. */
    private static Map<String, String> fieldMap(JsonNode obligations, String member) throws Malformed {
        if (!obligations.has(member)) {
            return Map.of();
        }
        JsonNode json = obligations.get(member);
        if (!json.isObject()) {
            throw new Malformed("obligations." + member + " is not an object");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            fields.put(field, text(json, field));
        }
        return fields;
    }

    private static void requireObjectWith(JsonNode node, Set<String> required, Set<String> allowed, String what)
            throws Malformed {
        if (!node.isObject()) {
            throw new Malformed(what + " is not an object");
        }
        for (String member : required) {
            if (!node.has(member)) {
                throw new Malformed(what + " lacks " + member);
            }
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new Malformed(what + " has an unexpected member");
            }
        }
    }

    private static String text(JsonNode node, String member) throws Malformed {
        JsonNode value = node.get(member);
        if (!value.isTextual()) {
            throw new Malformed(member + " is not a string");
        }
        return value.textValue();
    }

    private static long micros(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000;
    }

    private static <T> PolicyOutcome<T> malformed(String detail) {
        return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.MALFORMED_RESULT, detail));
    }

    /** A shape problem; internal control flow only, never leaves this class. */
    private static final class Malformed extends Exception {
        Malformed(String detail) {
            super(detail, null, false, false);
        }
    }
}
