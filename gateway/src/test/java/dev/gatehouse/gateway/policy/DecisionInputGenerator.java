package dev.gatehouse.gateway.policy;

import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.gate.UnicodeFacts;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.facts.Modes;
import dev.gatehouse.facts.OmittedArgument;
import dev.gatehouse.facts.ThreadShell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Seeded random decision inputs for the differential test, built through the typed API as the PEP builds them.
 * Drawn from the policy data itself (the access table's rows with their path, thread and mode fields, the mode
 * ranks and ceilings of policies/gatehouse/modes/data.json) and a few identity keys, so that allows and every reason
 * code occur: callers of both known kinds and unknown ones, ceilings and T3-Mode-Limit names known and unknown,
 * agent ids that can and cannot name a wiki subtree (ASCII and other scripts), bound and unbound projects, thread
 * shells found, missing and unavailable, wiki paths inside, outside and malformed (with the gate's own
 * {@code unicode} facts), identity keys spelled with separators and cases, schema errors, modes above, at and below
 * the limits. About one input in five repeats an earlier one, so a memo sees hits as well as misses.
 */
final class DecisionInputGenerator {

    /** Well-formed names that the policy data does not define, for ceilings and T3-Mode-Limit. */
    private static final List<String> UNKNOWN_NAMES = List.of("no-such-ceiling", "turbo", "FULL-ACCESS", "inherit");
    private static final List<String> ODD_IDS = List.of("", "..", "a b", "агент", "a/b", "a:b", "ノート");
    private static final List<String> SEGMENTS = List.of("notes", "page.md", "a", "2026", "draft-1.md", "..", ".",
            "", "x y", "über", "заметки", "ノート.md", "a\u200bb", "CON", ".hidden", "page", "файл.md", "a:b",
            "emoji\uD83D\uDE00.md");
    private static final List<String> IDENTITY = List.of("agentId", "agent_id", "Agent-ID", "client.id",
            "session id", "threadId", "projectId", "wiki_root", "token", "Authorization", "ａｇｅｎｔＩｄ", "path_id",
            "agentName");

    private final SplittableRandom random;
    private final List<String> tools = new ArrayList<>();
    private final Map<String, JsonNode> rows = new LinkedHashMap<>();
    private final List<String> runtime = new ArrayList<>();
    private final List<String> interaction = new ArrayList<>();
    private final List<String> ceilings = new ArrayList<>();
    private final List<DecisionInput> made = new ArrayList<>();

    DecisionInputGenerator(long seed) {
        this.random = new SplittableRandom(seed);
        try {
            JsonNode table = PolicyJson.MAPPER.readTree(TestBundle.policies()
                    .resolve("gatehouse/access_table/data.json").toFile());
            table.fields().forEachRemaining(row -> {
                tools.add(row.getKey());
                rows.put(row.getKey(), row.getValue());
            });
            JsonNode modes = PolicyJson.MAPPER.readTree(TestBundle.policies()
                    .resolve("gatehouse/modes/data.json").toFile());
            modes.path("rank").path("runtimeMode").fieldNames().forEachRemaining(runtime::add);
            modes.path("rank").path("interactionMode").fieldNames().forEachRemaining(interaction::add);
            modes.path("ceilings").fieldNames().forEachRemaining(ceilings::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next input: a new one, or (one time in five) one made before. */
    DecisionInput next() {
        if (made.size() > 10 && random.nextInt(5) == 0) {
            return made.get(random.nextInt(made.size()));
        }
        DecisionInput input = fresh();
        if (made.size() < 20_000) {
            made.add(input);
        } else {
            made.set(random.nextInt(made.size()), input);
        }
        return input;
    }

    private DecisionInput fresh() {
        int n = random.nextInt(1_000);
        String tool = random.nextInt(25) == 0 ? "no_such_tool_" + n : pick(tools);
        JsonNode row = rows.get(tool);
        String kind = switch (random.nextInt(10)) {
            case 0 -> "robot";
            case 1, 2, 3 -> "outside_agent";
            default -> "thread";
        };
        String agent = random.nextInt(12) == 0 ? pick(ODD_IDS) : "a" + random.nextInt(50);
        CallerFacts caller = caller(kind, agent);
        Map<String, Object> arguments = new LinkedHashMap<>();
        Map<String, ThreadShell> targets = new LinkedHashMap<>();
        List<String> pathFields = new ArrayList<>();
        if (row != null) {
            row.path("paths").fieldNames().forEachRemaining(field -> {
                pathFields.add(field);
                if (random.nextInt(8) != 0) {
                    arguments.put(field, path());
                }
            });
            row.path("threadFields").forEach(field -> {
                String id = "t" + random.nextInt(30);
                arguments.put(field.asText(), id);
                targets.put(id, shell());
            });
            row.path("modeFields").fields().forEachRemaining(axis -> {
                if (random.nextInt(3) != 0) {
                    arguments.put(axis.getValue().asText(), mode(axis.getKey()));
                }
            });
        } else {
            arguments.put("path", path());
        }
        // As the PEP sends them: a long value the policy does not read is null plus its facts (OmittedArgument).
        arguments.put(pick(List.of("content", "prompt", "query", "message")), random.nextInt(6) == 0
                ? new OmittedArgument(257 + random.nextInt(600_000), "%064x".formatted(random.nextLong()))
                : "v" + random.nextInt(100));
        if (random.nextInt(8) == 0) {
            arguments.put(pick(IDENTITY), "x");
        }
        if (random.nextInt(20) == 0) {
            arguments.put("nested", Map.of("inner", Map.of(pick(IDENTITY), 1)));
        }
        List<ArgumentError> errors = new ArrayList<>();
        if (random.nextInt(10) == 0) {
            errors.add(random.nextBoolean()
                    ? new ArgumentError("additionalProperties", "", Optional.of(pick(IDENTITY)), "unknown property")
                    : new ArgumentError("type", "/path", Optional.empty(), "must be a string"));
        }
        if (random.nextInt(40) == 0) {
            errors.add(new ArgumentError("gatehouse:envelope", "", Optional.empty(), "arguments: more than 11 members"));
        }
        Optional<Object> args = random.nextInt(50) == 0 ? Optional.of(List.of("not", "an", "object"))
                : Optional.of(arguments);
        Map<String, List<String>> unicode = args.get() instanceof Map<?, ?> && random.nextInt(15) != 0
                ? UnicodeFacts.of(args.get(), pathFields, caller) : Map.of();
        return new DecisionInput(Optional.of(tool), args, errors, caller, targets, unicode);
    }

    private CallerFacts caller(String kind, String agent) {
        boolean thread = kind.equals("thread");
        Optional<String> threadId = thread && random.nextInt(15) != 0 ? Optional.of("t" + random.nextInt(30))
                : Optional.empty();
        Optional<String> provider = Optional.of("pi-" + random.nextInt(3));
        Optional<ThreadShell> shell = thread && random.nextInt(15) != 0 ? Optional.of(shell()) : Optional.empty();
        Optional<String> ceiling = kind.equals("outside_agent") && random.nextInt(10) != 0
                ? Optional.of(random.nextInt(8) == 0 ? pick(UNKNOWN_NAMES) : pick(ceilings)) : Optional.empty();
        CallerFacts.Settings settings = new CallerFacts.Settings(random.nextInt(4) != 0, random.nextInt(4) != 0,
                random.nextInt(6) != 0, random.nextInt(5) != 0, random.nextInt(4) != 0);
        Optional<Modes> limit = random.nextInt(4) == 0 ? Optional.of(new Modes(
                random.nextInt(10) == 0 ? pick(UNKNOWN_NAMES) : pick(runtime),
                random.nextInt(10) == 0 ? pick(UNKNOWN_NAMES) : pick(interaction))) : Optional.empty();
        Optional<String> shares = kind.equals("outside_agent") && random.nextInt(6) == 0
                ? Optional.of(random.nextInt(6) == 0 ? pick(ODD_IDS) : "a" + random.nextInt(50)) : Optional.empty();
        return new CallerFacts(kind, agent, threadId, provider, shell, ceiling, settings, limit, shares);
    }

    private ThreadShell shell() {
        return switch (random.nextInt(10)) {
            case 0 -> ThreadShell.of(ThreadShell.Lookup.NOT_FOUND);
            case 1 -> ThreadShell.of(ThreadShell.Lookup.UNAVAILABLE);
            default -> ThreadShell.found(random.nextInt(10) == 0, random.nextInt(6) != 0,
                    Optional.of("pi-" + random.nextInt(3)), pick(runtime), pick(interaction));
        };
    }

    private String mode(String axis) {
        if (random.nextInt(6) == 0) {
            return random.nextBoolean() ? "inherit" : "turbo";
        }
        return axis.equals("runtimeMode") ? pick(runtime) : pick(interaction);
    }

    private String path() {
        int segments = 1 + random.nextInt(3);
        StringBuilder path = new StringBuilder(random.nextInt(20) == 0 ? "/" : "");
        for (int i = 0; i < segments; i++) {
            if (i > 0) {
                path.append('/');
            }
            path.append(random.nextInt(3) == 0 ? pick(SEGMENTS) : "p" + random.nextInt(10_000) + ".md");
        }
        return random.nextInt(30) == 0 ? "../a" + random.nextInt(50) + "/" + path : path.toString();
    }

    private <T> T pick(List<T> list) {
        return list.get(random.nextInt(list.size()));
    }
}
