package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.ArgumentEnvelope;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.DecisionArguments;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.facts.ToolSchema;
import dev.gatehouse.gateway.support.MinimalArguments;
import dev.gatehouse.gateway.support.ServedTools;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The envelope, walked with the real schemas, however arguments are widened. */
class ArgumentEnvelopeTest {

    private static final String UNKNOWN = "arguments: more than 8 members and array items the schema does not "
            + "declare, at any depth";
    private static final String BUSINESS = "arguments: more than 64 members and array items of business data, at "
            + "any depth";
    private final ArgumentLimits limits = new ArgumentLimits();

    private static final Envelope UNDECLARED = new Envelope(Optional.empty());

    private static Envelope envelope(String tool) {
        return new Envelope(Optional.of(ServedTools.of(tool).schema()));
    }

    /**
     * A tool's envelope ({@link ArgumentEnvelope#UNDECLARED} for none), measured as a call's arguments are: in the one
     * walk over them ({@link DecisionArguments#prepare}).
     */
    private record Envelope(Optional<ToolSchema> schema) {

        /** The bound {@code arguments} exceed, as the envelope error names it; empty when within all of them. */
        Optional<String> exceeded(Object arguments, ArgumentLimits limits) {
            return DecisionArguments.prepare(schema, Set.of(), arguments, limits).errors().stream()
                    .filter(error -> error.keyword().equals(ArgumentEnvelope.KEYWORD)).map(ArgumentError::message)
                    .findFirst();
        }
    }

    /**
     * For every tool: its example is within the envelope; 8 undeclared members or items more are too, added at the
     * top, inside a new object or as array items; the 9th exceeds it, wherever it is.
     */
    @Test
    void everyToolAdmitsEightUndeclaredMembersWhereverTheyAre() {
        MinimalArguments.load().forEach((tool, example) -> {
            Envelope envelope = envelope(tool);
            assertEquals(Optional.empty(), envelope.exceeded(example, limits), tool);
            for (String where : List.of("top", "nested", "items")) {
                assertEquals(Optional.empty(), envelope.exceeded(widened(example, where, 8), limits),
                        tool + ", 8 " + where);
                assertEquals(Optional.of(UNKNOWN), envelope.exceeded(widened(example, where, 9), limits),
                        tool + ", 9 " + where);
            }
        });
    }

    /** Business data has its own budget, and does not lend it to the closed parts around it. */
    @Test
    void businessDataHasItsOwnBudget() {
        Envelope envelope = envelope("project_work_submit");
        Map<String, Object> result = new LinkedHashMap<>();
        for (int i = 0; i < 63; i++) {
            result.put("field" + i, i);
        }
        result.put("list", List.of()); // the 64th
        Map<String, Object> arguments = new LinkedHashMap<>(Map.of("runId", "r", "runRevision", "run:1",
                "assignmentRevision", "position:1", "result", result));
        assertEquals(Optional.empty(), envelope.exceeded(arguments, limits));
        result.put("list", List.of(1)); // an item is business data too
        assertEquals(Optional.of(BUSINESS), envelope.exceeded(arguments, limits));
        result.put("list", List.of());

        for (int i = 0; i < 8; i++) {
            arguments.put("unknown" + i, "v");
        }
        assertEquals(Optional.empty(), envelope.exceeded(arguments, limits), "8 undeclared beside 64 business");
        arguments.put("unknown8", "v");
        assertEquals(Optional.of(UNKNOWN), envelope.exceeded(arguments, limits),
                "the closed top level does not get the business budget");
        assertEquals(Optional.of(BUSINESS), UNDECLARED.exceeded(widened(Map.of(), "top", 65),
                limits), "an unknown tool's arguments are all business data");
        assertEquals(Optional.empty(), UNDECLARED.exceeded(widened(Map.of(), "top", 64), limits));
        assertEquals(Optional.empty(), UNDECLARED.exceeded("not an object", limits));
    }

    /** Names are bounded in all, in UTF-8 bytes: many long names, or one very long one. */
    @Test
    void memberNamesAreBoundedInAllInUtf8Bytes() {
        Envelope envelope = envelope("project_work_submit");
        String emoji = "\uD83D\uDE00"; // 4 bytes
        Map<String, Object> base = Map.of("runId", "r", "runRevision", "run:1", "assignmentRevision",
                "position:1");
        int used = "runIdrunRevisionassignmentRevisionresult".length();
        Map<String, Object> fits = new LinkedHashMap<>(base);
        fits.put("result", Map.of(emoji.repeat((1024 - used) / 4), 1));
        assertEquals(Optional.empty(), envelope.exceeded(fits, limits));
        String tooLong = "arguments: member names longer than 1024 bytes of UTF-8 in all";
        for (String name : List.of(emoji.repeat((1024 - used) / 4 + 1), "n".repeat(50_000))) {
            Map<String, Object> arguments = new LinkedHashMap<>(base);
            arguments.put("result", Map.of("deeper", List.of(Map.of(name, 1))));
            assertEquals(Optional.of(tooLong), envelope.exceeded(arguments, limits), name.length() + " chars");
        }
        Map<String, Object> many = new LinkedHashMap<>(base);
        Map<String, Object> result = new LinkedHashMap<>();
        for (int i = 0; i < 60; i++) {
            result.put(String.format("%02d", i) + emoji.repeat(4), i); // 18 bytes each: 60 fit the count, not the bytes
        }
        many.put("result", result);
        assertEquals(Optional.of(tooLong), envelope.exceeded(many, limits));
    }

    /** A null is a value like any other, wherever it stands (it once made the walk throw). */
    @Test
    void nullsAnywhereAreValues() {
        MinimalArguments.load().forEach((tool, example) -> {
            for (Map<String, Object> arguments : List.of(withNull(example, "top"), withNull(example, "nested"),
                    withNull(example, "items"), withNull(example, "declared"))) {
                assertEquals(Optional.empty(), envelope(tool).exceeded(arguments, limits), tool + " " + arguments);
            }
        });
        assertEquals(Optional.empty(), envelope("wiki_write").exceeded(null, limits));
    }

    static Map<String, Object> withNull(Map<String, Object> example, String where) {
        Map<String, Object> arguments = new LinkedHashMap<>(example);
        switch (where) {
            case "top" -> arguments.put("x", null);
            case "nested" -> {
                Map<String, Object> inner = new LinkedHashMap<>();
                inner.put("y", null);
                arguments.put("x", inner);
            }
            case "items" -> arguments.put("x", Arrays.asList(null, 1));
            default -> arguments.replaceAll((name, value) -> null);
        }
        return arguments;
    }

    /** {@code example} with {@code extra} undeclared members or items more, placed as {@code where} says. */
    private static Map<String, Object> widened(Map<String, Object> example, String where, int extra) {
        Map<String, Object> arguments = new LinkedHashMap<>(example);
        switch (where) {
            case "top" -> {
                for (int i = 0; i < extra; i++) {
                    arguments.put("extra" + i, "v");
                }
            }
            case "nested" -> {
                Map<String, Object> inner = new LinkedHashMap<>();
                for (int i = 0; i < extra - 1; i++) {
                    inner.put("extra" + i, "v");
                }
                arguments.put("nest", inner); // the member "nest" is one of them
            }
            default -> {
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < extra - 1; i++) {
                    items.add(i);
                }
                arguments.put("list", items);
            }
        }
        return arguments;
    }
}
