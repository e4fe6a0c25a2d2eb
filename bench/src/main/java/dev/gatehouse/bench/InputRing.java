package dev.gatehouse.bench;

import dev.gatehouse.facts.SegmentCharacters;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.ThreadShell;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Rings of {@value #SIZE} distinct decision inputs, generated once per trial from a fixed seed and cycled through, so
 * that consecutive evaluations never see the same input (no memo, in the PDP or anywhere else, can answer them).
 * Every input differs in the caller's agent id (so in its wiki subtree), thread id and in the call's arguments. Inputs
 * are built through the public policy types, with the gateway's own {@code unicode} facts ({@link SegmentCharacters}).
 */
final class InputRing {

    static final int SIZE = 4096;
    private static final List<String> RUNTIME_MODES = List.of("approval-required", "auto-accept-edits", "auto",
            "full-access");

    /**
     * Scripts tried for non-ASCII names: code point ranges whose letters are of the categories names may use
     * (Lu, Ll, Lt, Lm, Lo; marks excluded, so Devanagari and Thai are their consonants only).
     */
    enum Script {
        LATIN_ACCENTED(0x00C0, 0x00FF), CYRILLIC(0x0410, 0x044F), GREEK(0x0391, 0x03C9), ARMENIAN(0x0531, 0x0556),
        HEBREW(0x05D0, 0x05EA), ARABIC(0x0621, 0x064A), DEVANAGARI(0x0915, 0x0939), THAI(0x0E01, 0x0E2E),
        HANGUL(0xAC00, 0xD7A3), CJK(0x4E00, 0x9FFF);

        final int[] letters;

        Script(int from, int to) {
            List<Integer> found = new ArrayList<>();
            for (int cp = from; cp <= to; cp++) {
                int type = Character.getType(cp);
                if (type == Character.UPPERCASE_LETTER || type == Character.LOWERCASE_LETTER
                        || type == Character.TITLECASE_LETTER || type == Character.MODIFIER_LETTER
                        || type == Character.OTHER_LETTER) {
                    found.add(cp);
                }
            }
            letters = found.stream().mapToInt(Integer::intValue).toArray();
        }

        String word(SplittableRandom random, int length) {
            StringBuilder word = new StringBuilder();
            for (int i = 0; i < length; i++) {
                word.appendCodePoint(letters[random.nextInt(letters.length)]);
            }
            return word.toString();
        }
    }

    private final DecisionInput[] inputs;
    private int next;

    private InputRing(DecisionInput[] inputs) {
        this.inputs = inputs;
    }

    /** The next input, cycling; one cursor per benchmark thread. */
    DecisionInput next() {
        DecisionInput input = inputs[next];
        next = (next + 1) & (SIZE - 1);
        return input;
    }

    DecisionInput[] all() {
        return inputs;
    }

    /** Every eighth input: what setup checks before timing (every timed outcome is checked as well). */
    List<DecisionInput> sample() {
        List<DecisionInput> sample = new ArrayList<>();
        for (int i = 0; i < SIZE; i += 8) {
            sample.add(inputs[i]);
        }
        return sample;
    }

    static InputRing of(IntFunction<DecisionInput> generator) {
        DecisionInput[] inputs = new DecisionInput[SIZE];
        for (int i = 0; i < SIZE; i++) {
            inputs[i] = generator.apply(i);
        }
        return new InputRing(inputs);
    }

    /** A thread caller (agent {@code a<i>}, thread {@code t<i>}) owning a live run at full-access/default. */
    static CallerFacts caller(int i, CallerFacts.Settings settings) {
        return new CallerFacts("thread", "a" + i, Optional.of("t" + i), Optional.of("pi-" + (i % 7)),
                Optional.of(ThreadShell.found(false, true, Optional.of("pi-" + (i % 7)), "full-access", "default")),
                Optional.empty(), settings, Optional.empty());
    }

    static final CallerFacts.Settings ALL_ON = new CallerFacts.Settings(true, true, true, true, true);

    /** Allowed t3_thread_launch calls with varying project, prompt and a runtime mode within the caller's. */
    static InputRing launches() {
        SplittableRandom random = new SplittableRandom(1);
        return of(i -> call(i, "t3_thread_launch", args("projectId", "p-" + i + "-" + random.nextInt(1_000_000),
                "prompt", "fix the build, attempt " + i + " of " + random.nextLong(),
                "runtimeMode", RUNTIME_MODES.get(i % RUNTIME_MODES.size())), ALL_ON));
    }

    /** Allowed wiki_write calls with ASCII paths of one to three segments. */
    static InputRing asciiWrites() {
        SplittableRandom random = new SplittableRandom(2);
        return of(i -> {
            String path = switch (i % 3) {
                case 0 -> "page-" + i + ".md";
                case 1 -> "notes-" + random.nextInt(100) + "/page " + i + ".md";
                default -> "team_" + random.nextInt(50) + "/2026-" + (i % 12) + "/draft." + i + ".md";
            };
            return call(i, "wiki_write", args("path", path, "content", "hello " + random.nextLong(),
                    "baseRevision", "r" + i), ALL_ON);
        });
    }

    /** Allowed wiki_write calls whose folder and page names are words of {@code script} (two non-ASCII segments). */
    static InputRing nonAsciiWrites(Script script) {
        SplittableRandom random = new SplittableRandom(3);
        return of(i -> {
            String path = script.word(random, 4 + random.nextInt(8)) + "/" + script.word(random, 3 + random.nextInt(10))
                    + "-" + i + ".md";
            return call(i, "wiki_write", args("path", path, "content", "hello " + random.nextLong(),
                    "baseRevision", "r" + i), ALL_ON);
        });
    }

    /**
     * Denied calls, three kinds in turn: a wiki_write out of the subtree ({@code path_escape}), an unknown tool
     * ({@code unknown_tool}), a wiki_write with wiki writing off ({@code capability_missing}).
     */
    static InputRing denials() {
        SplittableRandom random = new SplittableRandom(4);
        CallerFacts.Settings noWrite = new CallerFacts.Settings(true, true, true, true, false);
        return of(i -> switch (i % 3) {
            case 0 -> call(i, "wiki_write", args("path", "../a" + (i + 1) + "/page-" + i + ".md",
                    "content", "x" + random.nextLong()), ALL_ON);
            case 1 -> call(i, "no_such_tool_" + i, args("path", "page-" + i + ".md"), ALL_ON);
            default -> call(i, "wiki_write", args("path", "page-" + i + ".md", "content", "x" + random.nextLong()),
                    noWrite);
        });
    }

    /** tools/list for callers with varying ids and all 16 combinations of settings. */
    static InputRing listings() {
        return of(i -> DecisionInput.forListing(caller(i, new CallerFacts.Settings((i & 1) != 0, (i & 2) != 0,
                (i & 2) != 0, (i & 4) != 0, (i & 8) != 0))));
    }

    private static DecisionInput call(int i, String tool, Map<String, Object> arguments,
            CallerFacts.Settings settings) {
        List<String> pathFields = tool.startsWith("wiki_") ? List.of("path") : List.of();
        CallerFacts caller = caller(i, settings);
        return new DecisionInput(Optional.of(tool), Optional.of(arguments), List.of(), caller, Map.of(),
                SegmentCharacters.of(arguments, pathFields, caller.subtreeIds()));
    }

    private static Map<String, Object> args(String... pairs) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            arguments.put(pairs[i], pairs[i + 1]);
        }
        return arguments;
    }
}
