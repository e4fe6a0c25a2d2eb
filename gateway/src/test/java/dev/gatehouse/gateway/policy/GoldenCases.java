package dev.gatehouse.gateway.policy;

import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.ArgumentKeys;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.Modes;
import dev.gatehouse.facts.NoticeInput;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.ThreadShell.Lookup;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The golden decision matrix: every {@code policy-tests/golden/<family>/cases.json} of the shape
 * {@code {"entrypoint"?, "cases": [{"name", "input", "expected"}]}}; without {@code entrypoint} the cases are
 * tools/call decisions.
 */
public final class GoldenCases {

    private GoldenCases() {
    }

    /** One golden case. */
    public record GoldenCase(String family, String name, ObjectNode input, JsonNode expected) {

        /** {@code family/name}, unique across the matrix. */
        public String id() {
            return family + "/" + name;
        }

        /**
         * The same input as typed values, when the typed API can express it exactly: the mapper must give back
         * this very JSON. Inputs made to test the policy's own guards (absent caller, a ceiling or agent id that is
         * not a string, arguments that are JSON null) cannot be built by the PEP and are replayed as JSON only.
         */
        public Optional<DecisionInput> typed() {
            try {
                DecisionInput typed = toTyped(input);
                return DecisionInputMapper.forCall(typed).equals(input) ? Optional.of(typed) : Optional.empty();
            } catch (RuntimeException notExpressible) {
                return Optional.empty();
            }
        }
    }

    /**
     * A notice case's input as the typed {@link NoticeInput} notice delivery builds, when it can express it exactly:
     * the mapper must give back this very JSON (inputs made to test the policy's own guards are replayed as JSON
     * only).
     */
    public static Optional<NoticeInput> typedNotice(GoldenCase c) {
        try {
            NoticeInput typed = toNotice(c.input().get("notice"));
            return DecisionInputMapper.forNotice(typed).equals(c.input()) ? Optional.of(typed) : Optional.empty();
        } catch (RuntimeException notExpressible) {
            return Optional.empty();
        }
    }

    private static NoticeInput toNotice(JsonNode facts) {
        JsonNode notice = facts.get("notice");
        JsonNode agent = facts.get("agent");
        JsonNode thread = facts.get("thread");
        Optional<NoticeInput.Agent> profile = agent.get("found").booleanValue()
                ? Optional.of(new NoticeInput.Agent(agent.get("projectClientId").textValue(),
                        agent.get("project").get("enabled").booleanValue(),
                        text(agent.get("project"), "projectServiceProjectId"),
                        text(agent.get("modes"), "runtimeMode"), text(agent.get("modes"), "interactionMode"),
                        agent.get("limit").get("runtimeMode").textValue(),
                        agent.get("limit").get("interactionMode").textValue()))
                : Optional.empty();
        return new NoticeInput(text(facts.get("environment"), "projectClientId"),
                new NoticeInput.Notice(notice.get("noticeId").textValue(), notice.get("version").intValue(),
                        notice.get("agentId").textValue(), notice.get("projectId").textValue()),
                profile,
                new NoticeInput.Thread(thread.get("lookup").textValue(), text(thread, "threadId"),
                        thread.has("archived") ? Optional.of(thread.get("archived").booleanValue()) : Optional.empty(),
                        text(thread, "agentId"), text(thread, "workProjectId")));
    }

    /**
     * All cases of the tools/call decision, in family then file order: every file without an {@code entrypoint}
     * member (or with {@code gatehouse/authz/decision}).
     */
    public static List<GoldenCase> all() {
        return at(Entrypoint.DECISION);
    }

    /** The cases of the files whose {@code entrypoint} member names {@code entrypoint}, in family then file order. */
    public static List<GoldenCase> at(Entrypoint entrypoint) {
        Path golden = TestBundle.repo().resolve("policy-tests/golden");
        List<GoldenCase> cases = new ArrayList<>();
        try (Stream<Path> families = Files.list(golden)) {
            for (Path file : families.map(dir -> dir.resolve("cases.json")).filter(Files::isRegularFile).sorted()
                    .toList()) {
                String family = file.getParent().getFileName().toString();
                JsonNode suite = PolicyJson.MAPPER.readTree(file.toFile());
                if (!suite.path("entrypoint").asText(Entrypoint.DECISION.path()).equals(entrypoint.path())) {
                    continue;
                }
                for (JsonNode c : suite.path("cases")) {
                    cases.add(new GoldenCase(family, c.get("name").asText(), (ObjectNode) c.get("input"),
                            c.get("expected")));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return cases;
    }

    /** Builds the typed input the PEP would build for this JSON; throws when a required member is missing. */
    static DecisionInput toTyped(JsonNode input) {
        JsonNode caller = input.get("caller");
        JsonNode settings = caller.get("settings");
        CallerFacts facts = new CallerFacts(caller.get("kind").textValue(), caller.get("logicalAgentId").textValue(),
                text(caller, "threadId"), text(caller.path("session"), "providerInstanceId"),
                caller.has("thread") ? Optional.of(shell(caller.get("thread"))) : Optional.empty(),
                text(caller, "ceiling"),
                new CallerFacts.Settings(settings.get("browserAccess").booleanValue(),
                        settings.get("project").get("enabled").booleanValue(),
                        settings.get("project").get("bound").booleanValue(),
                        settings.get("wiki").get("read").booleanValue(), settings.get("wiki").get("write").booleanValue()),
                caller.has("modeLimit") ? Optional.of(modes(caller.get("modeLimit"))) : Optional.empty(),
                text(caller, "sharesThreadAgent"));
        List<ArgumentError> errors = new ArrayList<>();
        for (JsonNode error : input.path("argumentErrors")) {
            errors.add(new ArgumentError(error.get("keyword").textValue(), error.get("instanceLocation").textValue(),
                    text(error, "property"), error.get("message").textValue()));
        }
        Map<String, ThreadShell> targets = new LinkedHashMap<>();
        input.path("targets").path("threads").fields()
                .forEachRemaining(entry -> targets.put(entry.getKey(), shell(entry.getValue())));
        Optional<Object> arguments = input.has("arguments")
                ? Optional.ofNullable(PolicyJson.MAPPER.convertValue(input.get("arguments"), Object.class))
                : Optional.empty();
        Map<String, List<String>> unicode = new LinkedHashMap<>();
        input.path("unicode").fields().forEachRemaining(entry -> unicode.put(entry.getKey(),
                PolicyJson.MAPPER.convertValue(entry.getValue(), List.class)));
        List<ArgumentKeys.ArgumentKey> keys = new ArrayList<>();
        if (input.has("argumentKeys")) {
            for (JsonNode key : input.get("argumentKeys")) {
                keys.add(new ArgumentKeys.ArgumentKey(key.get("path").textValue(), key.get("key").textValue(),
                        key.get("folded").textValue()));
            }
        } else {
            keys.addAll(ArgumentKeys.of(arguments.orElse(null)));
        }
        return new DecisionInput(text(input, "tool"), arguments, errors, keys, facts, targets, unicode);
    }

    private static ThreadShell shell(JsonNode json) {
        Lookup lookup = Arrays.stream(Lookup.values()).filter(l -> l.wire().equals(json.get("lookup").textValue()))
                .findFirst().orElseThrow();
        return new ThreadShell(lookup, bool(json, "archived"), bool(json, "activeRun"),
                text(json, "providerInstanceId"), text(json, "runtimeMode"), text(json, "interactionMode"));
    }

    private static Optional<Boolean> bool(JsonNode json, String member) {
        return json.has(member) ? Optional.of(json.get(member).booleanValue()) : Optional.empty();
    }

    private static Modes modes(JsonNode json) {
        return new Modes(json.get("runtimeMode").textValue(), json.get("interactionMode").textValue());
    }

    private static Optional<String> text(JsonNode json, String member) {
        return json.has(member) ? Optional.of(json.get(member).textValue()) : Optional.empty();
    }
}
