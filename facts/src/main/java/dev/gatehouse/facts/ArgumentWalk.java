package dev.gatehouse.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one walk over a call's arguments (docs/design.md "What a decision costs"): it measures them against their
 * {@link ArgumentEnvelope}, builds them as the decision input carries them ({@link SentArguments}: long strings the
 * policy does not read omitted, {@link DecisionArguments}) and reports every member name with its folds
 * ({@link ArgumentKeys}), in one pass with an explicit stack, so no depth of input overflows the Java stack.
 *
 * <p>It visits each object and array once, as the envelope has always counted them: all of its members, then what
 * is below them, the last member first; so of two bounds a call exceeds, it names the one the envelope always named.
 * The keys and the strings not sent it meets in the reverse of document order, and hands them in document order.
 */
final class ArgumentWalk {

    /**
     * What the walk found.
     *
     * @param beyond    the bound of the envelope the arguments exceed; empty when within it
     * @param arguments the arguments the decision input carries: beyond the envelope, only the plain values of the
     *                  fields the policy reads
     * @param keys      every member name of those arguments with its folds, in document order, to
     *                  {@link ArgumentKeys#MAX_DEPTH} levels
     */
    record Walked(Optional<String> beyond, SentArguments arguments, List<ArgumentKeys.ArgumentKey> keys) {
    }

    /** An object or array still to visit: where it is, the node it is written into, its place in the envelope. */
    private record Container(Object value, String pointer, int depth, ContainerNode<?> node,
            ArgumentEnvelope.Place place) {
    }

    /**
     * Met once everything below it is: a member's name ({@code null} for an array item), and the string at it that is
     * not sent, if any.
     */
    private record Met(String name, String pointer, OmittedArgument omitted) {
    }

    private final ArgumentEnvelope.Tally tally;
    private final Set<String> readFields;
    private final int omitBytes;
    private final Deque<Object> stack = new ArrayDeque<>();
    private final List<ArgumentKeys.ArgumentKey> keys = new ArrayList<>();
    private final List<Met> omitted = new ArrayList<>();
    private JsonNode json;
    private boolean tooDeep;

    private ArgumentWalk(ArgumentEnvelope.Tally tally, Set<String> readFields, int omitBytes) {
        this.tally = tally;
        this.readFields = readFields;
        this.omitBytes = omitBytes;
    }

    /**
     * A call's arguments as received (maps and lists of plain Java values, or any JSON value): within the envelope,
     * every string longer than {@link ArgumentLimits#getOmitBytes()} omitted but a plain top-level value of a field
     * the policy reads; beyond it, only those values ({@link DecisionArguments#prepare}).
     */
    static Walked of(ArgumentEnvelope envelope, Set<String> readFields, Object arguments, ArgumentLimits limits) {
        ArgumentWalk walk = new ArgumentWalk(new ArgumentEnvelope.Tally(limits), readFields, limits.getOmitBytes());
        Optional<String> beyond = walk.walk(arguments, envelope.root());
        if (beyond.isPresent()) {
            Walked read = given(readOnly(arguments, readFields, envelope.root()));
            return new Walked(beyond, read.arguments(), read.keys());
        }
        return walk.walked();
    }

    /**
     * Arguments already in the form they are sent in, written as given (fixtures and tests build decision inputs
     * so): maps, lists and plain values, an {@link OmittedArgument} for a string not sent; nothing is measured.
     */
    static Walked given(Object arguments) {
        ArgumentWalk walk = new ArgumentWalk(null, Set.of(), Integer.MAX_VALUE);
        walk.walk(arguments, null);
        return walk.walked();
    }

    /** The walk: the bound of the envelope the arguments exceed, where it stops; empty when within it. */
    private Optional<String> walk(Object arguments, ArgumentEnvelope.Place root) {
        json = child(arguments, "", 0, root, null, false);
        while (!stack.isEmpty()) {
            Object next = stack.pop();
            if (next instanceof Met met) {
                met(met);
            } else {
                Optional<String> beyond = visit((Container) next);
                if (beyond.isPresent()) {
                    return beyond;
                }
            }
        }
        return Optional.empty();
    }

    /** What a whole walk found, the keys and strings not sent in document order. */
    private Walked walked() {
        Collections.reverse(keys);
        ObjectNode omissions = PolicyJson.MAPPER.createObjectNode();
        for (int i = omitted.size() - 1; i >= 0; i--) {
            Met met = omitted.get(i);
            omissions.putObject(met.pointer()).put("length", met.omitted().length())
                    .put("sha256", met.omitted().sha256());
        }
        return new Walked(Optional.empty(),
                new SentArguments(tooDeep ? Optional.empty() : Optional.of(json), omissions), List.copyOf(keys));
    }

    /** Counts and writes every member or item of one object or array, and leaves what is below them to visit. */
    private Optional<String> visit(Container container) {
        int depth = container.depth() + 1;
        if (container.value() instanceof Map<?, ?> map) {
            ObjectNode node = (ObjectNode) container.node();
            for (Map.Entry<?, ?> member : map.entrySet()) {
                String name = String.valueOf(member.getKey());
                ArgumentEnvelope.Place place = null;
                if (tally != null) {
                    place = container.place().member(name);
                    Optional<String> over = tally.member(name, place.part());
                    if (over.isPresent()) {
                        return over;
                    }
                }
                boolean read = container.depth() == 0 && !readFields.isEmpty() && readFields.contains(member.getKey());
                node.set(name, child(member.getValue(), depth > ArgumentKeys.MAX_DEPTH ? null
                        : container.pointer() + "/" + ArgumentKeys.pointerToken(name), depth, place, name, read));
            }
        } else {
            ArrayNode array = (ArrayNode) container.node();
            ArgumentEnvelope.Place items = tally == null ? null : container.place().items();
            int index = 0;
            for (Object item : (List<?>) container.value()) {
                if (tally != null) {
                    Optional<String> over = tally.item(items.part());
                    if (over.isPresent()) {
                        return over;
                    }
                }
                array.add(child(item, depth > ArgumentKeys.MAX_DEPTH ? null : container.pointer() + "/" + index,
                        depth, items, null, false));
                index++;
            }
        }
        return Optional.empty();
    }

    /**
     * The node of one value: an object or array still empty, visited later; a string not sent as {@code null}; any
     * other value as it is. What is met at it (its name, the string not sent) is pushed to be met after everything
     * below it.
     *
     * <p>Deeper than {@link ArgumentKeys#MAX_DEPTH}, the arguments cannot be written and no key is reported, so nothing
     * is met: the walk goes on only to measure them, without a pointer (whose length grows with the depth).
     *
     * @param pointer where the value is; {@code null} deeper than {@link ArgumentKeys#MAX_DEPTH}
     * @param read    whether the policy reads the value (a top-level member of a read field): a plain one is sent
     *                whole
     */
    private JsonNode child(Object value, String pointer, int depth, ArgumentEnvelope.Place place, String name,
            boolean read) {
        boolean met = depth <= ArgumentKeys.MAX_DEPTH;
        tooDeep |= !met;
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            ContainerNode<?> node = value instanceof Map<?, ?> ? PolicyJson.MAPPER.createObjectNode()
                    : PolicyJson.MAPPER.createArrayNode();
            if (met && name != null) {
                stack.push(new Met(name, pointer, null));
            }
            stack.push(new Container(value, pointer, depth, node, place));
            return node;
        }
        OmittedArgument notSent = !met ? null : value instanceof OmittedArgument facts ? facts
                : value instanceof String text ? (read ? overLong(text, place) : OmittedArgument.ifLonger(text,
                        omitBytes).orElse(null))
                : null;
        if (met && (name != null || notSent != null)) {
            stack.push(new Met(name, pointer, notSent));
        }
        if (notSent != null || value == null) {
            return NullNode.getInstance();
        }
        return value instanceof String text ? TextNode.valueOf(text) : PolicyJson.MAPPER.valueToTree(value);
    }

    /** A member name and a string not sent, met in the reverse of document order. */
    private void met(Met met) {
        if (met.omitted() != null) {
            omitted.add(met);
        }
        if (met.name() != null) {
            List<String> folds = ArgumentKeys.folds(met.name());
            for (int i = folds.size() - 1; i >= 0; i--) {
                keys.add(new ArgumentKeys.ArgumentKey(met.pointer(), met.name(), folds.get(i)));
            }
        }
    }

    /**
     * Only the top-level members the policy reads, and only their plain values: what is sent for arguments beyond
     * their envelope, so the policy still checks the paths, modes and threads the call names (a string longer than
     * its schema admits as its length and SHA-256, as {@link #overLong}).
     */
    private static Map<Object, Object> readOnly(Object arguments, Set<String> readFields, ArgumentEnvelope.Place root) {
        Map<Object, Object> sent = new LinkedHashMap<>();
        if (arguments instanceof Map<?, ?> map) {
            // By the fields, not the members: arguments beyond the envelope may hold any number of them.
            for (String field : readFields) {
                Object value = map.get(field);
                if (value != null && !(value instanceof Map<?, ?> || value instanceof List<?>)) {
                    OmittedArgument notSent = value instanceof String text ? overLong(text, root.member(field))
                            : null;
                    sent.put(field, notSent != null ? notSent : value);
                }
            }
        }
        return sent;
    }

    /**
     * The facts standing for a value the policy reads that is longer than its schema admits ({@code maxLength}, or the
     * longest of an {@code enum}); null when it is not, or where no schema applies. Such a value is invalid whatever
     * it holds (the schema check reports it), and the policy's work on a string grows with its length: a path of
     * 900,000 bytes cost 420 ms to decide, so it is not sent, and no call is dearer to decide than the longest value
     * its schema admits.
     */
    private static OmittedArgument overLong(String text, ArgumentEnvelope.Place place) {
        return place != null && place.overLong(text) ? OmittedArgument.of(text) : null;
    }
}
