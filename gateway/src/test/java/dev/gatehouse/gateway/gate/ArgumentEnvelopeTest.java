package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.mcp.ToolRegistryFactory;
import dev.gatehouse.gateway.support.MinimalArguments;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The envelope is read from the real schemas, and arguments are measured against it however they are widened. */
class ArgumentEnvelopeTest {

    private final ArgumentLimits limits = new ArgumentLimits();

    private static ArgumentEnvelope envelope(String tool) {
        return ToolRegistryFactory.readSchema(tool).orElseThrow().envelope();
    }

    @Test
    void theEnvelopeCountsEveryDeclaredMemberAndSeesOpenParts() {
        assertEquals(new ArgumentEnvelope(3, false), envelope("wiki_write"));
        assertEquals(new ArgumentEnvelope(4, false), envelope("t3_environment_preferences_update"),
                "preferences and its three members");
        assertEquals(new ArgumentEnvelope(4, true), envelope("project_work_submit"), "result is business data");
        assertEquals(new ArgumentEnvelope(0, false), ArgumentEnvelope.of(Map.of("type", "object",
                "additionalProperties", false)));
        assertEquals(new ArgumentEnvelope(1, true), ArgumentEnvelope.of(Map.of("type", "object",
                "additionalProperties", false, "properties", Map.of("list", Map.of("type", "array")))));
    }

    /**
     * Every tool's example arguments are within its envelope, and stay so up to the bound; one member or item more,
     * added at the top, inside a nested object or as array items, exceeds it.
     */
    @Test
    void everyToolsArgumentsExceedItsEnvelopeAtOneMemberMoreWhereverItIsAdded() {
        MinimalArguments.load().forEach((tool, example) -> {
            ArgumentEnvelope envelope = envelope(tool);
            long bound = envelope.declared() + (envelope.open() ? limits.getMaxOpenMembers()
                    : limits.getMaxUnknownMembers());
            assertEquals(bound, envelope.bound(limits), tool);
            assertEquals(Optional.empty(), envelope.exceeded(example, limits), tool);
            long members = count(example);
            for (String where : List.of("top", "nested", "items")) {
                assertEquals(Optional.empty(), envelope.exceeded(widened(example, where, bound - members), limits),
                        tool + " at the bound, " + where);
                Optional<String> beyond = envelope.exceeded(widened(example, where, bound - members + 1), limits);
                assertTrue(beyond.orElse("").startsWith("arguments: more than " + bound + " members"),
                        tool + " beyond the bound, " + where + ": " + beyond);
            }
        });
    }

    @Test
    void aMemberNameLongerThanTheLimitExceedsItAtAnyDepthCountedInCodePoints() {
        ArgumentEnvelope envelope = envelope("project_work_submit");
        String emoji = "\uD83D\uDE00"; // one code point, two chars
        for (String name : List.of("n".repeat(128), emoji.repeat(128))) {
            assertEquals(Optional.empty(), envelope.exceeded(Map.of("result", Map.of(name, 1)), limits), name);
        }
        for (String name : List.of("n".repeat(129), emoji.repeat(129), "n".repeat(50_000))) {
            assertEquals(Optional.of("arguments: a member name is longer than 128 characters"),
                    envelope.exceeded(Map.of("result", Map.of("deeper", List.of(Map.of(name, 1)))), limits),
                    name.length() + " chars");
        }
    }

    @Test
    void unknownToolsMayCarryOnlyTheOpenBudget() {
        Map<String, Object> wide = new LinkedHashMap<>();
        for (int i = 0; i < limits.getMaxOpenMembers(); i++) {
            wide.put("k" + i, i);
        }
        assertEquals(Optional.empty(), ArgumentEnvelope.UNDECLARED.exceeded(wide, limits));
        wide.put("one-more", 0);
        assertTrue(ArgumentEnvelope.UNDECLARED.exceeded(wide, limits).isPresent());
        assertEquals(Optional.empty(), ArgumentEnvelope.UNDECLARED.exceeded("not an object", limits));
    }

    /** {@code example} with {@code extra} members more, placed as {@code where} says. */
    private static Map<String, Object> widened(Map<String, Object> example, String where, long extra) {
        Map<String, Object> arguments = new LinkedHashMap<>(example);
        switch (where) {
            case "top" -> {
                for (int i = 0; i < extra; i++) {
                    arguments.put("extra" + i, "v");
                }
            }
            case "nested" -> {
                if (extra > 0) {
                    Map<String, Object> inner = new LinkedHashMap<>();
                    for (int i = 0; i < extra - 1; i++) {
                        inner.put("extra" + i, "v");
                    }
                    arguments.put("nest", inner); // the member "nest" is one of the extra
                }
            }
            default -> {
                if (extra > 0) {
                    List<Object> items = new ArrayList<>();
                    for (int i = 0; i < extra - 1; i++) {
                        items.add(i);
                    }
                    arguments.put("list", items);
                }
            }
        }
        return arguments;
    }

    private static long count(Object value) {
        if (value instanceof Map<?, ?> map) {
            return map.size() + map.values().stream().mapToLong(ArgumentEnvelopeTest::count).sum();
        }
        if (value instanceof List<?> list) {
            return list.size() + list.stream().mapToLong(ArgumentEnvelopeTest::count).sum();
        }
        return 0;
    }
}
