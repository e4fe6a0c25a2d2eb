package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.host.NoticeThread;
import dev.gatehouse.facade.host.NoticeThreads;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.gateway.notice.NoticeStore.Group;
import dev.gatehouse.gateway.notice.NoticeStore.Receipt;
import java.util.List;
import java.util.Optional;

/**
 * Sends one aggregate message (docs/domain.md §9): built from the Project Service's authoritative work list, never
 * from notice contents, stored as sending with its notices before the host is called ({@link AggregateSends}), then
 * posted into the mapped thread or, when the decision carries the modes to create one with, into a new thread.
 */
final class AggregateSender {

    private final Optional<String> hostProject;
    private final ProjectFacade projects;
    private final NoticeThreads host;
    private final NoticeStatus status;
    private final AggregateSends sends;
    private final DeliveryBackoff backoff;

    /**
     * @param hostProject the T3 project threads created for notices start in
     *                    ({@code gatehouse.notices.host-project})
     */
    AggregateSender(Optional<String> hostProject, ProjectFacade projects, NoticeThreads host, NoticeStatus status,
            AggregateSends sends, DeliveryBackoff backoff) {
        this.hostProject = hostProject;
        this.projects = projects;
        this.host = host;
        this.status = status;
        this.sends = sends;
        this.backoff = backoff;
    }

    /**
     * Sends the aggregate of {@code notices}.
     *
     * @param thread the group's mapped thread as looked up for the decisions
     * @param create the modes of a thread to create (the decision's {@code modes} obligation); empty to post into
     *               the mapped thread
     */
    void send(Group group, List<Receipt> notices, ThreadLookup thread, Optional<ThreadModes> create) {
        if (create.isPresent() && hostProject.isEmpty()) {
            backoff.retryLater(group, "gatehouse.notices.host-project is not set; no thread can be created");
            return;
        }
        FacadeResult<List<WorkRun>> work = projects.listWork(new ProjectBinding(group.agentId(), group.projectId()));
        if (work instanceof FacadeResult.Failed<List<WorkRun>> failed) {
            status.projectFailed(failed.error());
            backoff.retryLater(group, "the Project Service did not list the work: " + failed.error().kind());
            return;
        }
        String message = AggregateMessage.text(group.projectId(), ((FacadeResult.Ok<List<WorkRun>>) work).value());
        List<String> ids = notices.stream().map(Receipt::noticeId).toList();
        String aggregateId = AggregateMessage.id(group, ids);
        Optional<String> target = create.isPresent() ? Optional.empty() : thread.threadId();
        if (!sends.start(aggregateId, group, target, ids)) {
            return;
        }
        if (create.isPresent()) {
            FacadeResult<NoticeThread> created = host.create(group.agentId(), group.projectId(), hostProject.get(),
                    create.get(), message, aggregateId);
            if (created instanceof FacadeResult.Ok<NoticeThread> ok) {
                sends.sent(group, aggregateId, ok.value().threadId(), ids.size() + " notice(s), new thread");
            } else {
                sends.unsent(group, aggregateId, ((FacadeResult.Failed<NoticeThread>) created).error(),
                        Optional.empty());
            }
            return;
        }
        var posted = host.post(target.orElseThrow(), message, aggregateId);
        if (posted instanceof FacadeResult.Ok<?>) {
            sends.sent(group, aggregateId, target.get(), ids.size() + " notice(s)");
        } else {
            sends.unsent(group, aggregateId, ((FacadeResult.Failed<?>) posted).error(), target);
        }
    }
}
