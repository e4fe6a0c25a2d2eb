package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.ArgumentKeys;
import dev.gatehouse.facts.OmittedArgument;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps what a caller controls from growing a record: masks credential-like arguments ({@link ArgumentMasker}) and
 * replaces every long value, wherever the record copies it, by its length and SHA-256, keeping the value itself
 * once in the values file ({@link StoredValue}) so a replay can put it back.
 *
 * <p>Everything but the members the gateway writes itself ({@code decision_id, timestamp, path, method, bundles,
 * metrics}) is walked: {@code tool}, {@code caller}, {@code input} (arguments, facts, omitted-argument pointers),
 * {@code result}, the readable {@code reasons} and {@code obligations}, {@code fault}. In it:
 * <ul>
 * <li>a string longer than the bound (UTF-8 bytes) becomes {@code {"length": <bytes>, "sha256": "<hex>"}}, its
 *     JSON Pointer listed in {@code redacted};</li>
 * <li>a member name longer than the bound becomes {@code "sha256:<hex>"} (with {@code #<n>} appended in the
 *     unlikely case an object already has a member of that name), listed in {@code redactedKeys} as
 *     {@code {pointer, length, sha256}};</li>
 * <li>{@code input.unicode}, keyed by the segments of the confined paths (pieces of argument values, each of which
 *     may be short while all together are as long as the paths), becomes
 *     {@code {"length", "sha256", "json": true}} when its compact JSON is longer than the bound, listed in
 *     {@code redacted}.</li>
 * </ul>
 * Pointers name members as logged (a renamed member by its {@code sha256:} name). The same value in several places
 * (an argument and its copy in {@code tool}, {@code result} and {@code obligations}) is stored once.
 *
 * <p>A value equal to one a masked member held (a credential a caller also put elsewhere) is never stored: its
 * stand-in stays, and a replay says the value was not kept.
 */
final class RecordRedactor {

    /** Members the gateway writes itself: ids, times, the entry point, the bundle's provenance. */
    private static final Set<String> OWN = Set.of("decision_id", "timestamp", "path", "method", "bundles", "metrics");
    static final String KEY_PREFIX = "sha256:";

    /**
     * What was changed.
     *
     * @param masked       pointers of masked argument members, document order
     * @param redacted     pointers of values replaced by their length and SHA-256, document order
     * @param redactedKeys {@code {pointer, length, sha256}} of renamed members, parents before children
     * @param values       the replaced values to keep, each once, none a masked one
     */
    record Outcome(List<String> masked, List<String> redacted, List<ObjectNode> redactedKeys,
            List<StoredValue> values) {
    }

    private final int maxBytes;
    private final List<String> masked = new ArrayList<>();
    private final List<String> redacted = new ArrayList<>();
    private final List<ObjectNode> redactedKeys = new ArrayList<>();
    /** Candidate values by {@link StoredValue#key()}, with the strings each holds (for the masked check). */
    private final Map<String, Candidate> values = new LinkedHashMap<>();
    /** Every string a masked member held. */
    private final Set<String> withheld = new HashSet<>();
    /** The masked members' JSON Pointers relative to the arguments, by their names as given (omittedArguments' keys). */
    private final List<String> maskedArguments = new ArrayList<>();

    private record Candidate(StoredValue value, List<String> strings) {
    }

    private RecordRedactor(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Redacts {@code record} in place.
     *
     * @param record   a record as {@link DecisionRecordJson} builds it, its input as evaluated
     * @param maxBytes the longest string or member name kept, in UTF-8 bytes
     */
    static Outcome redact(ObjectNode record, int maxBytes) {
        RecordRedactor redactor = new RecordRedactor(maxBytes);
        if (record.get("input") instanceof ObjectNode input && input.get("unicode") instanceof ObjectNode unicode) {
            redactor.wholeIfLonger(input, "unicode", unicode, "/input/unicode");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = record.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> member = it.next();
            if (!OWN.contains(member.getKey())) {
                member.setValue(redactor.walk(member.getValue(), Pointer.ROOT.member(member.getKey()), false));
            }
        }
        List<StoredValue> kept = new ArrayList<>();
        for (Candidate candidate : redactor.values.values()) {
            if (candidate.strings().stream().noneMatch(redactor.withheld::contains)) {
                kept.add(candidate.value());
            }
        }
        return new Outcome(List.copyOf(redactor.masked), List.copyOf(redactor.redacted),
                List.copyOf(redactor.redactedKeys), List.copyOf(kept));
    }

    /**
     * Whether {@link #redact} would change anything in a record's {@code input}: a string or member name longer than
     * {@code maxBytes} anywhere in it, a masked member under its {@code arguments}, or a {@code unicode} whose JSON
     * is longer. Reads the input and changes nothing, so a record whose input needs none of it can log the input's
     * text as it was evaluated.
     *
     * @param input a decision input as {@link dev.gatehouse.facts.DecisionInputMapper#forCall} writes it
     */
    static boolean changes(JsonNode input, int maxBytes) {
        RecordRedactor probe = new RecordRedactor(maxBytes);
        if (input.get("unicode") instanceof ObjectNode unicode && !unicode.isEmpty()
                && probe.longer(PolicyJson.write(unicode))) {
            return true;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = input.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> member = it.next();
            if (probe.longer(member.getKey())
                    || probe.changes(member.getValue(), member.getKey().equals("arguments"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #changes} of {@code node}, which is under {@code /input/arguments} when {@code arguments}. No pointer is
     * made: nothing is listed here, and this runs on every call.
     */
    private boolean changes(JsonNode node, boolean arguments) {
        if (node.isTextual()) {
            return longer(node.textValue());
        }
        if (node instanceof ArrayNode array) {
            for (JsonNode item : array) {
                if (changes(item, arguments)) {
                    return true;
                }
            }
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> member = it.next();
            if (longer(member.getKey()) || arguments && ArgumentMasker.masks(member.getKey())
                    || changes(member.getValue(), arguments)) {
                return true;
            }
        }
        return false;
    }

    /** Replaces {@code node}, member {@code name} of {@code parent}, by one stand-in when its JSON is too long. */
    private void wholeIfLonger(ObjectNode parent, String name, JsonNode node, String pointer) {
        String serialised = PolicyJson.write(node);
        int length = serialised.getBytes(StandardCharsets.UTF_8).length;
        if (length <= maxBytes) {
            return;
        }
        StoredValue value = StoredValue.ofJson(serialised, node);
        List<String> strings = new ArrayList<>();
        strings(node, strings, true);
        values.putIfAbsent(value.key(), new Candidate(value, strings));
        parent.set(name, standIn(length, value.sha256()).put("json", true));
        redacted.add(pointer);
    }

    /**
     * {@code node} as logged: long strings replaced, masked arguments masked, in place; an object with a long
     * member name is rebuilt under the new names, in the same order.
     *
     * @param arguments whether {@code node} is under {@code input.arguments} (where masking applies)
     */
    private JsonNode walk(JsonNode node, Pointer pointer, boolean arguments) {
        if (node.isTextual()) {
            return string(node.textValue(), pointer).orElse(node);
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, walk(array.get(i), pointer.item(i), arguments));
            }
            return array;
        }
        if (!(node instanceof ObjectNode object)) {
            return node;
        }
        Set<String> taken = null;
        for (Iterator<String> names = object.fieldNames(); names.hasNext() && taken == null; ) {
            if (longer(names.next())) {
                taken = new HashSet<>();
                object.fieldNames().forEachRemaining(taken::add);
            }
        }
        ObjectNode logged = taken == null ? null : PolicyJson.MAPPER.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> member = it.next();
            String name = member.getKey();
            String loggedName = taken == null ? name : name(name, taken, pointer);
            Pointer child = pointer.member(loggedName, name);
            JsonNode value;
            if (arguments && ArgumentMasker.masks(name)) {
                strings(member.getValue(), new ArrayList<>(), false).forEach(withheld::add);
                value = ArgumentMasker.MASK;
                masked.add(child.toString());
                maskedArguments.add(child.givenUnderArguments());
            } else if (pointer.isOmittedArguments() && underMasked(name)) {
                // The length and SHA-256 of a masked value, which the input carries for a long one, are as much the
                // credential's as its text: a guess could be checked against them.
                value = ArgumentMasker.MASK;
                masked.add(child.toString());
            } else {
                value = walk(member.getValue(), child, arguments || child.isArguments());
            }
            if (logged == null) {
                member.setValue(value);
            } else {
                logged.set(loggedName, value);
            }
        }
        return logged == null ? object : logged;
    }

    /** Whether the omitted argument at {@code pointer} (relative to the arguments) is a masked member or below one. */
    private boolean underMasked(String pointer) {
        for (String member : maskedArguments) {
            if (pointer.equals(member) || pointer.startsWith(member + "/")) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code text} is longer than the bound in UTF-8 bytes (counted without encoding it). */
    private boolean longer(String text) {
        if ((long) text.length() * 3 <= maxBytes) {
            return false;
        }
        long bytes = 0;
        for (int i = 0; i < text.length() && bytes <= maxBytes; i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3; // a surrogate pair: 4
        }
        return bytes > maxBytes;
    }

    /** The stand-in for a long string (and the value to keep); empty when the string is kept. */
    private Optional<JsonNode> string(String value, Pointer pointer) {
        if (!longer(value)) {
            return Optional.empty();
        }
        OmittedArgument facts = OmittedArgument.ifLonger(value, maxBytes).orElseThrow();
        keep(StoredValue.ofString(facts.sha256(), value), value);
        redacted.add(pointer.toString());
        return Optional.of(standIn(facts.length(), facts.sha256()));
    }

    /**
     * The name a member is logged under: {@code name}, or a digest name when it is too long, one no other member
     * of its object has ({@code taken}: the object's names and the digest names given so far, added to).
     */
    private String name(String name, Set<String> taken, Pointer pointer) {
        if (!longer(name)) {
            return name;
        }
        OmittedArgument facts = OmittedArgument.ifLonger(name, maxBytes).orElseThrow();
        String digestName = KEY_PREFIX + facts.sha256();
        String loggedName = digestName;
        for (int n = 1; taken.contains(loggedName); n++) {
            loggedName = digestName + "#" + n;
        }
        taken.add(loggedName);
        keep(StoredValue.ofString(facts.sha256(), name), name);
        redactedKeys.add(standIn(facts.length(), facts.sha256()).put("pointer", pointer.member(loggedName).toString()));
        return loggedName;
    }

    private void keep(StoredValue value, String string) {
        values.putIfAbsent(value.key(), new Candidate(value, List.of(string)));
    }

    private static ObjectNode standIn(long length, String sha256) {
        return PolicyJson.MAPPER.createObjectNode().put("length", length).put("sha256", sha256);
    }

    /** Every string value (and, with {@code names}, member name) in {@code node}, added to {@code into}. */
    private static List<String> strings(JsonNode node, List<String> into, boolean names) {
        if (node.isTextual()) {
            into.add(node.textValue());
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> member = it.next();
                if (names) {
                    into.add(member.getKey());
                }
                strings(member.getValue(), into, names);
            }
        } else {
            node.forEach(item -> strings(item, into, names));
        }
        return into;
    }

    /** A JSON Pointer (RFC 6901) made into text only when a change is listed under it. */
    private record Pointer(Pointer parent, String name, String given, int index) {

        static final Pointer ROOT = new Pointer(null, null, null, -1);

        /** The member logged as {@code member} and given as {@code given} (they differ for a long name). */
        Pointer member(String member, String given) {
            return new Pointer(this, member, given, -1);
        }

        Pointer member(String member) {
            return member(member, member);
        }

        Pointer item(int i) {
            return new Pointer(this, null, null, i);
        }

        /** Whether this is {@code /input/arguments}. */
        boolean isArguments() {
            return "arguments".equals(name) && parent.parent == ROOT && "input".equals(parent.name);
        }

        /** Whether this is {@code /input/omittedArguments}. */
        boolean isOmittedArguments() {
            return "omittedArguments".equals(name) && parent.parent == ROOT && "input".equals(parent.name);
        }

        /** This pointer relative to {@code /input/arguments}, by the names as given; {@code ""} for the arguments. */
        String givenUnderArguments() {
            if (isArguments()) {
                return "";
            }
            return parent.givenUnderArguments() + "/"
                    + (given == null ? Integer.toString(index) : ArgumentKeys.pointerToken(given));
        }

        @Override
        public String toString() {
            if (parent == null) {
                return "";
            }
            return parent + "/" + (name == null ? Integer.toString(index) : ArgumentKeys.pointerToken(name));
        }
    }
}
