package dev.gatehouse.facts;

import dev.gatehouse.facts.DecisionInput.ArgumentError;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The one place a {@link DecisionInput} becomes decision-input JSON (schemas/decision-input.json). Both engines and
 * the decision log use it, so the logged input is exactly the input that was evaluated. Every member of the
 * {@link DecisionInput} is written and nothing else; absent optional facts are left out (never written as
 * {@code null}), so the policy sees them as absent. Thread targets are written in id order so equal inputs give
 * byte-equal JSON.
 */
public final class DecisionInputMapper {

    private DecisionInputMapper() {
    }

    /**
     * Input for {@code gatehouse/authz/decision}: {@code tool} and {@code arguments} when present,
     * {@code argumentErrors} and {@code argumentKeys} always (the policy treats an absent list as "not validated"),
     * and {@code omittedArguments} when an argument value was not sent ({@link OmittedArgument}). The arguments'
     * nodes are those of its {@link SentArguments}, not copies: change a copy of the tree, not the tree.
     *
     * @throws IllegalArgumentException when the arguments nest deeper than {@link ArgumentKeys#MAX_DEPTH}
     */
    public static ObjectNode forCall(DecisionInput input) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        writeArguments(json, input.tool(), input.arguments(), input.argumentErrors(), input.argumentKeys());
        return withCaller(json, input);
    }

    /**
     * Sets on {@code input} (a decision input whose caller and targets are already written, such as a review
     * profile's or a logged record's) the members a call's arguments give: {@code tool}, {@code arguments},
     * {@code omittedArguments}, {@code argumentErrors}, {@code argumentKeys} and {@code unicode}, exactly as
     * {@link #forCall} writes them, replacing any there (the arguments' nodes, as there, the facts' own).
     *
     * @return {@code input}
     */
    public static ObjectNode withArgumentFacts(ObjectNode input, String tool, ArgumentFacts facts) {
        input.remove(List.of("tool", "arguments", "omittedArguments", "argumentErrors", "argumentKeys", "unicode"));
        writeArguments(input, Optional.of(tool), Optional.of(facts.arguments()), facts.errors(), facts.keys());
        writeUnicode(input, facts.unicode());
        return input;
    }

    /**
     * Sets the members of a call's arguments: {@code arguments} and {@code omittedArguments} are the nodes the one walk
     * over them built ({@link SentArguments}, set as they are), or, for arguments given in their sent form, the nodes
     * that walk builds of them here.
     *
     * @throws IllegalArgumentException when the arguments nest deeper than {@link ArgumentKeys#MAX_DEPTH} (the
     *                                  transport refuses far less deep; the engines report it as their fault)
     */
    private static void writeArguments(ObjectNode json, Optional<String> tool, Optional<Object> arguments,
            List<ArgumentError> argumentErrors, List<ArgumentKeys.ArgumentKey> argumentKeys) {
        tool.ifPresent(name -> json.put("tool", name));
        arguments.ifPresent(value -> {
            SentArguments sent = value instanceof SentArguments built ? built : ArgumentWalk.given(value).arguments();
            json.set("arguments", sent.json().orElseThrow(() -> new IllegalArgumentException(
                    "arguments nest deeper than " + ArgumentKeys.MAX_DEPTH)));
            if (!sent.omitted().isEmpty()) {
                json.set("omittedArguments", sent.omitted());
            }
        });
        ArrayNode errors = json.putArray("argumentErrors");
        argumentErrors.forEach(error -> errors.add(argumentError(error)));
        ArrayNode keys = json.putArray("argumentKeys");
        argumentKeys.forEach(key -> keys.addObject().put("path", key.path()).put("key", key.key())
                .put("folded", key.folded()));
    }

    /**
     * Input for {@code gatehouse/authz/notice}: {@code {"notice": {environment, notice, agent, thread}}}, absent
     * optional facts left out; {@code agent.found} says whether the agent has a delivery profile.
     */
    public static ObjectNode forNotice(NoticeInput input) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        ObjectNode facts = json.putObject("notice");
        ObjectNode environment = facts.putObject("environment");
        input.projectClientId().ifPresent(id -> environment.put("projectClientId", id));
        NoticeInput.Notice notice = input.notice();
        facts.putObject("notice").put("noticeId", notice.noticeId()).put("version", notice.version())
                .put("agentId", notice.agentId()).put("projectId", notice.projectId());
        ObjectNode agent = facts.putObject("agent");
        agent.put("found", input.agent().isPresent());
        input.agent().ifPresent(a -> {
            agent.put("projectClientId", a.projectClientId());
            ObjectNode project = agent.putObject("project").put("enabled", a.projectEnabled());
            a.projectServiceProjectId().ifPresent(id -> project.put("projectServiceProjectId", id));
            ObjectNode modes = agent.putObject("modes");
            a.runtimeMode().ifPresent(mode -> modes.put("runtimeMode", mode));
            a.interactionMode().ifPresent(mode -> modes.put("interactionMode", mode));
            agent.putObject("limit").put("runtimeMode", a.limitRuntimeMode())
                    .put("interactionMode", a.limitInteractionMode());
        });
        NoticeInput.Thread thread = input.thread();
        ObjectNode shell = facts.putObject("thread").put("lookup", thread.lookup());
        thread.threadId().ifPresent(id -> shell.put("threadId", id));
        thread.archived().ifPresent(archived -> shell.put("archived", archived));
        thread.agentId().ifPresent(id -> shell.put("agentId", id));
        thread.workProjectId().ifPresent(id -> shell.put("workProjectId", id));
        return json;
    }

    /** Input for {@code gatehouse/authz/visible_tools}: caller, targets and unicode only. */
    public static ObjectNode forListing(DecisionInput input) {
        return withCaller(PolicyJson.MAPPER.createObjectNode(), input);
    }

    private static ObjectNode withCaller(ObjectNode json, DecisionInput input) {
        json.set("caller", caller(input.caller()));
        ObjectNode threads = json.putObject("targets").putObject("threads");
        new TreeMap<>(input.targets()).forEach((id, shell) -> threads.set(id, thread(shell)));
        writeUnicode(json, input.unicode());
        return json;
    }

    /** {@code unicode}, segments in order, so equal facts give byte-equal JSON. */
    private static void writeUnicode(ObjectNode json, Map<String, List<String>> facts) {
        ObjectNode unicode = json.putObject("unicode");
        new TreeMap<>(facts).forEach((segment, categories) -> {
            ArrayNode list = unicode.putArray(segment);
            categories.forEach(list::add);
        });
    }

    private static ObjectNode caller(CallerFacts facts) {
        ObjectNode caller = PolicyJson.MAPPER.createObjectNode();
        caller.put("kind", facts.kind());
        caller.put("logicalAgentId", facts.logicalAgentId());
        facts.threadId().ifPresent(id -> caller.put("threadId", id));
        facts.sessionProviderInstanceId().ifPresent(id -> caller.putObject("session").put("providerInstanceId", id));
        facts.thread().ifPresent(shell -> caller.set("thread", thread(shell)));
        facts.ceiling().ifPresent(ceiling -> caller.put("ceiling", ceiling));
        ObjectNode settings = caller.putObject("settings");
        settings.put("browserAccess", facts.settings().browserAccess());
        settings.putObject("project").put("enabled", facts.settings().projectEnabled())
                .put("bound", facts.settings().projectBound());
        settings.putObject("wiki").put("read", facts.settings().wikiRead()).put("write", facts.settings().wikiWrite());
        facts.modeLimit().ifPresent(limit -> caller.set("modeLimit", modes(limit)));
        facts.sharesThreadAgent().ifPresent(agent -> caller.put("sharesThreadAgent", agent));
        return caller;
    }

    private static ObjectNode modes(Modes modes) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("runtimeMode", modes.runtimeMode());
        json.put("interactionMode", modes.interactionMode());
        return json;
    }

    private static ObjectNode thread(ThreadShell shell) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("lookup", shell.lookup().wire());
        shell.archived().ifPresent(archived -> json.put("archived", archived));
        shell.activeRun().ifPresent(active -> json.put("activeRun", active));
        shell.providerInstanceId().ifPresent(id -> json.put("providerInstanceId", id));
        shell.runtimeMode().ifPresent(mode -> json.put("runtimeMode", mode));
        shell.interactionMode().ifPresent(mode -> json.put("interactionMode", mode));
        return json;
    }

    private static ObjectNode argumentError(ArgumentError error) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("keyword", error.keyword());
        json.put("instanceLocation", error.instanceLocation());
        error.property().ifPresent(property -> json.put("property", property));
        json.put("message", error.message());
        return json;
    }
}
