package dev.gatehouse.local.project;

import dev.gatehouse.local.http.ApiException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The local Project Service's Work notices (docs/domain.md §9): assigning work emits a notice to the Project client
 * that owns the agent; each client reads its own notices after a cursor (long polling) and ACKs each. Notice ids are
 * deterministic ({@code n-<projectId>-<runId>-<assignmentRevision>}): emitting the same assignment again gives the
 * same id. Shares the {@link ProjectStore}'s state and lock, so a notice and its run change are saved together.
 */
public final class NoticeStore {

    private static final Set<String> ACK_STATES = Set.of("delivered", "refused", "stale");
    private static final int PAGE = 100;

    private final ProjectStore projects;

    public NoticeStore(ProjectStore projects) {
        this.projects = projects;
    }

    /**
     * Assigns {@code runId} (created when new, reopened and its assignment revision raised when it exists) to
     * {@code agentId} and emits one notice to {@code clientId}.
     */
    public ProjectState.Notice assign(String clientId, String agentId, String agentName, String projectId,
            String projectName, String runId, String title, Optional<String> summary) {
        synchronized (projects) {
            ProjectState state = projects.state();
            if (!state.projects.contains(projectId)) {
                state.projects.add(projectId);
            }
            ProjectState.Run run = state.runs.get(projectId + "/" + runId);
            if (run == null) {
                run = new ProjectState.Run();
                run.projectId = projectId;
                run.runId = runId;
                run.runRevision = 1;
                run.executorRef = "exec-" + runId;
                run.workspaceRef = "ws-" + runId;
                state.runs.put(projectId + "/" + runId, run);
            }
            run.agentId = agentId;
            run.title = title;
            run.status = "open";
            run.assignmentRevision++;
            ProjectState.Notice notice = new ProjectState.Notice();
            notice.seq = ++state.lastNotice;
            notice.clientId = clientId;
            notice.noticeId = "n-" + projectId + "-" + runId + "-" + run.assignmentRevision;
            notice.agentId = agentId;
            notice.agentName = agentName;
            notice.projectId = projectId;
            notice.projectName = projectName;
            notice.workId = "w-" + runId;
            notice.positionId = "pos-" + agentId + "-" + runId;
            notice.runId = runId;
            notice.runRevision = "run:" + run.runRevision;
            notice.assignmentRevision = "position:" + run.assignmentRevision;
            notice.summary = summary.orElse(null);
            state.notices.add(notice);
            projects.save();
            projects.notifyAll();
            return notice;
        }
    }

    /**
     * The client's notices after {@code after} (0 = from the start), at most 100, waiting up to {@code waitMillis}
     * ms for one when none is there.
     */
    public List<ProjectState.Notice> after(String clientId, long after, long waitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(0, waitMillis) * 1_000_000;
        synchronized (projects) {
            while (true) {
                List<ProjectState.Notice> found = projects.state().notices.stream()
                        .filter(n -> n.seq > after && n.clientId.equals(clientId)).limit(PAGE).toList();
                long left = deadline - System.nanoTime();
                if (!found.isEmpty() || left <= 0) {
                    return found;
                }
                projects.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /** Records the client's ACK of one of its notices; 404 {@code notice_not_found}, 400 {@code bad_state}. */
    public ProjectState.Notice acknowledge(String clientId, String noticeId, String state) {
        if (!ACK_STATES.contains(state)) {
            throw ApiException.badRequest("bad_state", "state must be delivered, refused or stale");
        }
        synchronized (projects) {
            ProjectState.Notice notice = projects.state().notices.stream()
                    .filter(n -> n.noticeId.equals(noticeId) && n.clientId.equals(clientId)).findFirst()
                    .orElseThrow(() -> ApiException.notFound("notice_not_found", "no such notice for this client"));
            notice.ackState = state;
            projects.save();
            return notice;
        }
    }
}
