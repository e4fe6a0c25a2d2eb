package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.host.NoticeThread;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.facts.NoticeInput;
import java.util.Optional;

/**
 * Builds the input of the notice entry point from typed facts: this environment's Project client, the notice's
 * routing fields (never its display names), the agent's delivery profile and Project binding, and the mapped
 * thread's shell. Facts only; the policy draws every conclusion.
 */
final class NoticeFacts {

    private NoticeFacts() {
    }

    static NoticeInput input(Optional<String> clientId, NoticeStore.Receipt notice, Optional<DeliveryProfile> profile,
            AgentSettings settings, ThreadLookup thread) {
        return new NoticeInput(clientId,
                new NoticeInput.Notice(notice.noticeId(), notice.version(), notice.agentId(), notice.projectId()),
                profile.map(p -> new NoticeInput.Agent(p.projectClientId(), settings.project().enabled(),
                        settings.project().projectServiceProjectId(), p.runtimeMode(), p.interactionMode(),
                        p.limitRuntimeMode(), p.limitInteractionMode())),
                new NoticeInput.Thread(thread.outcome().wire(), thread.threadId(),
                        thread.shell().map(NoticeThread::archived),
                        thread.shell().flatMap(NoticeThread::agentId),
                        thread.shell().flatMap(NoticeThread::workProjectId)));
    }
}
