package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.SegmentCharacters;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.ToolSchema;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.support.ServedTools;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A call's decision input, written from {@link ArgumentFacts}, is byte for byte the one the previous separate walks
 * over its arguments wrote ({@link PreviousArgumentWalks}, the oracle), for generated arguments of every shape: nested
 * objects and arrays, long strings where the policy reads them and where it does not, non-ASCII, confusable and
 * invisible member names, {@code ~} and {@code /} in names, nulls, numbers of every kind, arguments beyond the
 * envelope (each bound, under default and tight limits), arguments that are no object, and a name no tool is served
 * under.
 */
class ArgumentWalkDifferentialTest {

    private static final int CASES = 4_000;
    private static final List<String> ODD_NAMES = List.of("a", "agentId", "ａｇｅｎｔＩｄ", "\u0430gentId",
            "agent\u200bId", "agentI\u0307d", "ſecret", "ıd", "x~y", "a/b", "~0", "~1/", "", "😀", "漢字", "Ⅸ", "ℌ",
            "ﬁle", "rn", "Agent_ID", "agent-id", "\u0c02k", "ÅngströM", "user id");

    private final Map<String, ServedTool> served = new LinkedHashMap<>();
    private final CallerFacts caller = Facts.a1();
    private final Map<String, ThreadShell> targets = Map.of("t1", caller.thread().orElseThrow());

    ArgumentWalkDifferentialTest() {
        ServedTools.table().all().forEach(tool -> served.put(tool.name(), tool));
    }

    @Test
    void everyGeneratedCallIsWrittenAsThePreviousWalksWroteIt() {
        List<String> tools = new ArrayList<>(served.keySet());
        tools.add("no_such_tool");
        int beyond = 0;
        int omitted = 0;
        for (int seed = 0; seed < CASES; seed++) {
            Random random = new Random(seed);
            String tool = tools.get(random.nextInt(tools.size()));
            Optional<ServedTool> known = Optional.ofNullable(served.get(tool));
            ArgumentLimits limits = limits(random);
            Object arguments = new Generator(random, names(known)).arguments(known);
            String expected = expected(tool, known, arguments, limits);
            assertEquals(expected, actual(tool, known, arguments, limits), "seed " + seed + ": " + arguments);
            assertEquals(expectedWithFacts(tool, known, arguments, limits),
                    actualWithFacts(tool, known, arguments, limits), "withArgumentFacts, seed " + seed);
            beyond += expected.contains("gatehouse:envelope") ? 1 : 0;
            omitted += expected.contains("omittedArguments") ? 1 : 0;
        }
        assertTrue(beyond > CASES / 10 && beyond < CASES * 9 / 10, beyond + " beyond the envelope");
        assertTrue(omitted > CASES / 10, omitted + " with omitted strings");
    }

    /** Nested deeper than the decision input is written: neither writes it, and the facts keep 512 levels of keys. */
    @Test
    void argumentsDeeperThanTheInputIsWrittenAreNotWrittenEither() {
        ArgumentLimits wide = new ArgumentLimits();
        wide.setMaxOpenMembers(100_000);
        wide.setMaxNamesBytes(100_000);
        for (int depth : List.of(511, 512, 513, 600)) {
            for (boolean lists : List.of(false, true)) {
                Object arguments = "leaf";
                for (int i = 0; i < depth; i++) {
                    arguments = lists ? List.of(arguments) : Map.of("k" + i % 3, arguments);
                }
                Object nested = arguments;
                ArgumentFacts facts = ArgumentFacts.of(Optional.empty(), Optional.empty(), nested, wide, Set.of());
                DecisionInput input = new DecisionInput("no_such_tool", facts, caller, targets);
                if (depth <= 512) {
                    assertEquals(expected("no_such_tool", Optional.empty(), nested, wide),
                            WrittenInput.forCall(input).orElseThrow().text(), depth + " levels");
                } else {
                    assertEquals(Optional.empty(), WrittenInput.forCall(input), depth + " levels");
                    assertThrows(IllegalArgumentException.class, () -> DecisionInputMapper.forCall(input));
                    assertThrows(IllegalArgumentException.class, () -> expected("no_such_tool", Optional.empty(),
                            nested, wide));
                }
                assertEquals(PreviousArgumentWalks.keys(nested), facts.keys(), depth + " levels");
            }
        }
    }

    /**
     * Far deeper, with limits that admit it: the facts are derived without overflowing the Java stack (the previous
     * walks threw StackOverflowError from ArgumentFacts.of at a few thousand levels), the keys stop at 512 levels and
     * the input is not written.
     */
    @Test
    void noDepthOverflowsTheJavaStack() {
        ArgumentLimits wide = new ArgumentLimits();
        wide.setMaxOpenMembers(1_000_000);
        wide.setMaxNamesBytes(1_000_000);
        for (boolean lists : List.of(false, true)) {
            Object arguments = "x".repeat(300);
            for (int i = 0; i < 100_000; i++) {
                arguments = lists ? List.of(arguments) : Map.of("k", arguments);
            }
            ArgumentFacts facts = ArgumentFacts.of(Optional.empty(), Optional.empty(), arguments, wide, Set.of());
            assertEquals(lists ? 0 : 512, facts.keys().size());
            assertEquals(Optional.empty(), WrittenInput.forCall(new DecisionInput("no_such_tool", facts, caller,
                    targets)));
        }
    }

    private String actual(String tool, Optional<ServedTool> known, Object arguments, ArgumentLimits limits) {
        ArgumentFacts facts = ArgumentFacts.of(known.map(ServedTool::schema), known.map(ServedTool::row), arguments,
                limits, caller.subtreeIds());
        String written = PolicyJson.write(DecisionInputMapper.forCall(new DecisionInput(tool, facts, caller,
                targets)));
        assertEquals(written, WrittenInput.forCall(new DecisionInput(tool, facts, caller, targets)).orElseThrow()
                .text());
        return written;
    }

    private String actualWithFacts(String tool, Optional<ServedTool> known, Object arguments, ArgumentLimits limits) {
        ArgumentFacts facts = ArgumentFacts.of(known.map(ServedTool::schema), known.map(ServedTool::row), arguments,
                limits, caller.subtreeIds());
        return PolicyJson.write(DecisionInputMapper.withArgumentFacts(profile(), tool, facts));
    }

    /** What the previous walks wrote for the call. */
    private String expected(String tool, Optional<ServedTool> known, Object arguments, ArgumentLimits limits) {
        Previous previous = previous(known, arguments, limits);
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        PreviousArgumentWalks.writeArguments(json, Optional.of(tool), Optional.of(previous.prepared().arguments()),
                previous.errors(), PreviousArgumentWalks.keys(previous.prepared().arguments()));
        json.setAll(DecisionInputMapper.forListing(new DecisionInput(Optional.empty(), Optional.empty(), List.of(),
                List.of(), caller, targets, previous.unicode())));
        return PolicyJson.write(json);
    }

    private String expectedWithFacts(String tool, Optional<ServedTool> known, Object arguments,
            ArgumentLimits limits) {
        Previous previous = previous(known, arguments, limits);
        ObjectNode json = profile();
        json.remove(List.of("tool", "arguments", "omittedArguments", "argumentErrors", "argumentKeys", "unicode"));
        PreviousArgumentWalks.writeArguments(json, Optional.of(tool), Optional.of(previous.prepared().arguments()),
                previous.errors(), PreviousArgumentWalks.keys(previous.prepared().arguments()));
        json.set("unicode", DecisionInputMapper.forListing(new DecisionInput(Optional.empty(), Optional.empty(),
                List.of(), List.of(), caller, targets, previous.unicode())).get("unicode"));
        return PolicyJson.write(json);
    }

    private record Previous(PreviousArgumentWalks.Prepared prepared, List<ArgumentError> errors,
            Map<String, List<String>> unicode) {
    }

    private Previous previous(Optional<ServedTool> known, Object arguments, ArgumentLimits limits) {
        Optional<ToolSchema> schema = known.map(ServedTool::schema);
        PreviousArgumentWalks.Prepared prepared = PreviousArgumentWalks.prepare(schema.map(ToolSchema::inputSchema),
                known.map(t -> t.row().readFields()).orElse(Set.of()), arguments, limits);
        List<ArgumentError> errors = prepared.beyond().map(List::of)
                .orElseGet(() -> schema.map(s -> s.validator().check(arguments)).orElse(List.of()));
        return new Previous(prepared, errors, SegmentCharacters.of(prepared.arguments(),
                known.map(t -> t.row().pathFields()).orElse(List.of()), caller.subtreeIds()));
    }

    /** A review profile's input: caller and targets written, and members the facts replace. */
    private ObjectNode profile() {
        ObjectNode json = DecisionInputMapper.forListing(new DecisionInput(Optional.empty(), Optional.empty(),
                List.of(), List.of(), caller, targets, Map.of("old", List.of("Lo"))));
        json.put("tool", "old").putObject("omittedArguments").put("old", 1);
        return json;
    }

    private static ArgumentLimits limits(Random random) {
        ArgumentLimits limits = new ArgumentLimits();
        if (random.nextInt(3) == 0) {
            limits.setMaxOpenMembers(1 + random.nextInt(12));
            limits.setMaxUnknownMembers(1 + random.nextInt(6));
            limits.setMaxNamesBytes(8 + random.nextInt(120));
            limits.setOmitBytes(1 + random.nextInt(40));
        }
        return limits;
    }

    /** Every member name the tool's schema declares, at any depth, the row's read fields, and odd names. */
    private static List<String> names(Optional<ServedTool> tool) {
        Set<String> names = new LinkedHashSet<>();
        tool.ifPresent(t -> {
            names.addAll(t.row().readFields());
            declared(t.schema().inputSchema(), names);
        });
        names.addAll(ODD_NAMES);
        return List.copyOf(names);
    }

    private static void declared(Object schema, Set<String> names) {
        if (schema instanceof Map<?, ?> map) {
            map.forEach((name, value) -> {
                if ("properties".equals(name) && value instanceof Map<?, ?> properties) {
                    properties.keySet().forEach(property -> names.add(String.valueOf(property)));
                }
                declared(value, names);
            });
        } else if (schema instanceof List<?> list) {
            list.forEach(item -> declared(item, names));
        }
    }

    /** Arguments of every shape, from one seed. */
    private static final class Generator {

        private final Random random;
        private final List<String> names;

        Generator(Random random, List<String> names) {
            this.random = random;
            this.names = names;
        }

        Object arguments(Optional<ServedTool> tool) {
            if (random.nextInt(12) == 0) {
                return switch (random.nextInt(4)) {
                    case 0 -> list(0);
                    case 1 -> string();
                    case 2 -> number();
                    default -> "short";
                };
            }
            Map<String, Object> arguments = new LinkedHashMap<>();
            tool.ifPresent(t -> t.row().readFields().forEach(field -> {
                if (random.nextInt(4) != 0) {
                    arguments.put(field, random.nextInt(6) == 0 ? value(1) : path());
                }
            }));
            int members = random.nextInt(5) == 0 ? 5 + random.nextInt(70) : random.nextInt(6);
            for (int i = 0; i < members; i++) {
                arguments.put(name(), value(1));
            }
            return arguments;
        }

        private Object value(int depth) {
            int kind = random.nextInt(depth > 5 ? 6 : 9);
            return switch (kind) {
                case 0, 1, 2 -> string();
                case 3 -> number();
                case 4 -> random.nextBoolean();
                case 5 -> null;
                case 6, 7 -> map(depth);
                default -> list(depth);
            };
        }

        private Map<String, Object> map(int depth) {
            Map<String, Object> map = new LinkedHashMap<>();
            int members = random.nextInt(8) == 0 ? random.nextInt(30) : random.nextInt(4);
            for (int i = 0; i < members; i++) {
                map.put(name(), value(depth + 1));
            }
            return map;
        }

        private List<Object> list(int depth) {
            List<Object> list = new ArrayList<>();
            int items = random.nextInt(8) == 0 ? random.nextInt(30) : random.nextInt(4);
            for (int i = 0; i < items; i++) {
                list.add(value(depth + 1));
            }
            return list;
        }

        private String name() {
            String name = names.get(random.nextInt(names.size()));
            return random.nextInt(10) == 0 ? name + random.nextInt(100) : name;
        }

        private String path() {
            return switch (random.nextInt(5)) {
                case 0 -> "notes/" + "p".repeat(300 + random.nextInt(200)) + ".md";
                case 1 -> "wiki/Ünïcödé/名前/page.md";
                case 2 -> "../escape/a~b.md";
                case 3 -> "t" + random.nextInt(30);
                default -> "docs/readme.md";
            };
        }

        private String string() {
            return switch (random.nextInt(9)) {
                case 0 -> "x".repeat(200 + random.nextInt(200));
                case 1 -> "a".repeat(256);
                case 2 -> "a".repeat(257);
                case 3 -> "漢".repeat(85 + random.nextInt(2));
                case 4 -> "😀".repeat(30 + random.nextInt(60));
                case 5 -> "line\nwith \"quotes\" and \\ and \u0000";
                case 6 -> "";
                default -> "v" + random.nextInt(100);
            };
        }

        private Object number() {
            return switch (random.nextInt(9)) {
                case 0 -> random.nextInt(1000) - 500;
                case 1 -> random.nextLong();
                case 2 -> new BigInteger("123456789012345678901234567890123456789");
                case 3 -> new BigDecimal("1E+400");
                case 4 -> new BigDecimal("100.0");
                case 5 -> new BigDecimal("-0.000000000000000000001");
                case 6 -> 1.5d;
                case 7 -> new BigDecimal("1e64");
                default -> 0;
            };
        }
    }
}
