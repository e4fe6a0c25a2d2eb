package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.ArgumentEnvelope;
import dev.gatehouse.facts.ArgumentKeys;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.facts.OmittedArgument;
import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The previous implementation of a call's argument facts, kept only as the oracle of
 * {@link ArgumentWalkDifferentialTest}: the separate walks the facts module made before it walked the arguments once
 * (the envelope's count, the copy with long unread strings omitted, the keys, and the decision input's JSON written
 * from that copy), copied as they were at d9d669b, and since then sending a value the policy reads as omitted when it
 * is longer than its schema admits ({@link #bounded}, written here on its own). Not to be used for anything else.
 */
final class PreviousArgumentWalks {

    private enum Part { DECLARED, UNKNOWN, BUSINESS }

    private PreviousArgumentWalks() {
    }

    /** The previous {@code DecisionArguments.prepare}: the arguments to send and the envelope error, if any. */
    record Prepared(Object arguments, Optional<ArgumentError> beyond) {
    }

    static Prepared prepare(Optional<Map<String, Object>> schema, Set<String> readFields, Object arguments,
            ArgumentLimits limits) {
        Optional<String> beyond = exceeded(schema.orElse(null), arguments, limits);
        if (beyond.isPresent()) {
            return new Prepared(readOnly(schema.orElse(null), arguments, readFields),
                    Optional.of(new ArgumentError(ArgumentEnvelope.KEYWORD, "", Optional.empty(), beyond.get())));
        }
        return new Prepared(of(schema.orElse(null), arguments, readFields, limits.getOmitBytes()), Optional.empty());
    }

    /** The previous {@code DecisionInputMapper.writeArguments}. */
    static void writeArguments(ObjectNode json, Optional<String> tool, Optional<Object> arguments,
            List<ArgumentError> argumentErrors, List<ArgumentKeys.ArgumentKey> argumentKeys) {
        tool.ifPresent(name -> json.put("tool", name));
        arguments.ifPresent(value -> {
            ObjectNode omitted = PolicyJson.MAPPER.createObjectNode();
            json.set("arguments", arguments(value, "", 0, omitted));
            if (!omitted.isEmpty()) {
                json.set("omittedArguments", omitted);
            }
        });
        ArrayNode errors = json.putArray("argumentErrors");
        argumentErrors.forEach(error -> errors.add(argumentError(error)));
        ArrayNode keys = json.putArray("argumentKeys");
        argumentKeys.forEach(key -> keys.addObject().put("path", key.path()).put("key", key.key())
                .put("folded", key.folded()));
    }

    private static JsonNode arguments(Object value, String pointer, int depth, ObjectNode omitted) {
        if (depth > ArgumentKeys.MAX_DEPTH) {
            throw new IllegalArgumentException("arguments nest deeper than " + ArgumentKeys.MAX_DEPTH);
        }
        if (value == null) {
            return NullNode.getInstance();
        }
        if (value instanceof OmittedArgument leaf) {
            omitted.putObject(pointer).put("length", leaf.length()).put("sha256", leaf.sha256());
            return NullNode.getInstance();
        }
        if (value instanceof Map<?, ?> map) {
            ObjectNode object = PolicyJson.MAPPER.createObjectNode();
            map.forEach((name, member) -> {
                String key = String.valueOf(name);
                object.set(key, arguments(member, pointer + "/" + ArgumentKeys.pointerToken(key), depth + 1,
                        omitted));
            });
            return object;
        }
        if (value instanceof List<?> list) {
            ArrayNode array = PolicyJson.MAPPER.createArrayNode();
            for (int i = 0; i < list.size(); i++) {
                array.add(arguments(list.get(i), pointer + "/" + i, depth + 1, omitted));
            }
            return array;
        }
        return PolicyJson.MAPPER.valueToTree(value);
    }

    private static ObjectNode argumentError(ArgumentError error) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("keyword", error.keyword());
        json.put("instanceLocation", error.instanceLocation());
        error.property().ifPresent(property -> json.put("property", property));
        json.put("message", error.message());
        return json;
    }

    /** The previous {@code ArgumentKeys.of}. */
    static List<ArgumentKeys.ArgumentKey> keys(Object arguments) {
        List<ArgumentKeys.ArgumentKey> keys = new ArrayList<>();
        Deque<Iterator<Map.Entry<String, Object>>> stack = new ArrayDeque<>();
        stack.push(children(arguments, ""));
        while (!stack.isEmpty()) {
            Iterator<Map.Entry<String, Object>> next = stack.peek();
            if (!next.hasNext()) {
                stack.pop();
                continue;
            }
            Map.Entry<String, Object> child = next.next();
            if (child.getKey() != null) {
                keys.add((ArgumentKeys.ArgumentKey) child.getValue());
                continue;
            }
            Object[] pathAndValue = (Object[]) child.getValue();
            if (stack.size() < ArgumentKeys.MAX_DEPTH) {
                stack.push(children(pathAndValue[1], (String) pathAndValue[0]));
            }
        }
        return List.copyOf(keys);
    }

    private static Iterator<Map.Entry<String, Object>> children(Object value, String at) {
        List<Map.Entry<String, Object>> out = new ArrayList<>();
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> member : map.entrySet()) {
                String key = String.valueOf(member.getKey());
                String path = at + "/" + ArgumentKeys.pointerToken(key);
                for (String folded : ArgumentKeys.folds(key)) {
                    out.add(new AbstractMap.SimpleImmutableEntry<>("key",
                            new ArgumentKeys.ArgumentKey(path, key, folded)));
                }
                out.add(new AbstractMap.SimpleImmutableEntry<>(null, new Object[] {path, member.getValue()}));
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                out.add(new AbstractMap.SimpleImmutableEntry<>(null, new Object[] {at + "/" + i, list.get(i)}));
            }
        }
        return out.iterator();
    }

    private static Object of(Map<String, Object> schema, Object arguments, Set<String> readFields, int omitBytes) {
        if (arguments instanceof Map<?, ?> map) {
            Map<Object, Object> sent = new LinkedHashMap<>();
            map.forEach((name, value) -> sent.put(name, readFields.contains(name) && plain(value)
                    ? bounded(schema, String.valueOf(name), value) : below(value, omitBytes)));
            return sent;
        }
        return below(arguments, omitBytes);
    }

    private static Map<Object, Object> readOnly(Map<String, Object> schema, Object arguments, Set<String> readFields) {
        Map<Object, Object> sent = new LinkedHashMap<>();
        if (arguments instanceof Map<?, ?> map) {
            for (String field : readFields) {
                Object value = map.get(field);
                if (plain(value)) {
                    sent.put(field, bounded(schema, field, value));
                }
            }
        }
        return sent;
    }

    /** A read value as sent: a string over its declared {@code maxLength} (or longest {@code enum}) as omitted. */
    private static Object bounded(Map<String, Object> schema, String field, Object value) {
        Object declared = schema != null && schema.get("properties") instanceof Map<?, ?> properties
                ? properties.get(field) : null;
        if (!(value instanceof String text) || !(declared instanceof Map<?, ?> member)) {
            return value;
        }
        long bound = member.get("maxLength") instanceof Number max ? max.longValue()
                : member.get("enum") instanceof List<?> values && values.stream().allMatch(String.class::isInstance)
                ? values.stream().mapToLong(v -> ((String) v).codePoints().count()).max().orElse(-1) : -1;
        return bound >= 0 && text.codePoints().count() > bound ? OmittedArgument.of(text) : value;
    }

    private static boolean plain(Object value) {
        return value != null && !(value instanceof Map || value instanceof List);
    }

    private static Object below(Object value, int omitBytes) {
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

    /** The previous {@code ArgumentEnvelope.exceeded}; {@code schema} {@code null} for an undeclared name. */
    private static Optional<String> exceeded(Map<?, ?> schema, Object arguments, ArgumentLimits limits) {
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

    private record Pending(Object value, Object schema, Part part) {
    }

    private static Part undeclaredMember(Pending parent) {
        if (parent.part() != Part.DECLARED) {
            return parent.part();
        }
        return parent.schema() instanceof Map<?, ?> s && Boolean.FALSE.equals(s.get("additionalProperties"))
                ? Part.UNKNOWN : Part.BUSINESS;
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
