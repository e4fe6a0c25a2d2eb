package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.host.NoticeThread;
import dev.gatehouse.facts.NoticeInput;
import dev.gatehouse.gateway.context.AgentSettings;
import java.util.Objects;
import java.util.Optional;

/**
 * What the notice PEP knows of one agent + project for one delivery pass, gathered once in the facts step and the
 * same for each of its notices: this environment's Project client, the agent's delivery profile and settings (its
 * Project binding), and the mapped thread as the host reported it. Facts only; the policy draws every conclusion.
 *
 * @param clientId the Project client this gateway is ({@code gatehouse.notices.client-id})
 * @param profile  the agent's delivery profile, if one is set
 * @param settings the agent's settings
 * @param thread   the group's mapped thread, as the host reported it
 */
record NoticeFacts(Optional<String> clientId, Optional<DeliveryProfile> profile, AgentSettings settings,
        ThreadLookup thread) {

    NoticeFacts {
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(thread, "thread");
    }

    /** The input of the notice entry point for one notice: these facts and its routing fields (never its names). */
    NoticeInput input(NoticeStore.Receipt notice) {
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
