package dev.gatehouse.gateway.notice;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.policy.PolicyJson;
import java.util.Optional;

/**
 * Builds the input of the notice entry point ({@code {"notice": {...}}}, the {@code notice} member of
 * schemas/decision-input.json) from typed facts: this environment's Project client, the notice's routing fields
 * (never its display names), the agent's delivery profile and Project binding, and the mapped thread's shell.
 * Facts only; the policy draws every conclusion.
 */
final class NoticeFacts {

    private NoticeFacts() {
    }

    static ObjectNode input(Optional<String> clientId, NoticeStore.Receipt notice, Optional<DeliveryProfile> profile,
            AgentSettings settings, ThreadLookup thread) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        ObjectNode facts = json.putObject("notice");
        ObjectNode environment = facts.putObject("environment");
        clientId.ifPresent(id -> environment.put("projectClientId", id));
        facts.putObject("notice").put("noticeId", notice.noticeId()).put("version", notice.version())
                .put("agentId", notice.agentId()).put("projectId", notice.projectId());
        ObjectNode agent = facts.putObject("agent");
        agent.put("found", profile.isPresent());
        profile.ifPresent(p -> {
            agent.put("projectClientId", p.projectClientId());
            ObjectNode project = agent.putObject("project").put("enabled", settings.project().enabled());
            settings.project().projectServiceProjectId().ifPresent(id -> project.put("projectServiceProjectId", id));
            ObjectNode modes = agent.putObject("modes");
            p.runtimeMode().ifPresent(mode -> modes.put("runtimeMode", mode));
            p.interactionMode().ifPresent(mode -> modes.put("interactionMode", mode));
            agent.putObject("limit").put("runtimeMode", p.limitRuntimeMode())
                    .put("interactionMode", p.limitInteractionMode());
        });
        ObjectNode shell = facts.putObject("thread").put("lookup", thread.outcome().wire());
        thread.threadId().ifPresent(id -> shell.put("threadId", id));
        thread.shell().ifPresent(s -> {
            shell.put("archived", s.archived());
            s.agentId().ifPresent(id -> shell.put("agentId", id));
            s.workProjectId().ifPresent(id -> shell.put("workProjectId", id));
        });
        return json;
    }
}
