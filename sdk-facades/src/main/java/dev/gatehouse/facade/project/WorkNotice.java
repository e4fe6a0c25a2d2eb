package dev.gatehouse.facade.project;

import java.util.Objects;
import java.util.Optional;

/**
 * One Project Work notice as the Project Service sends it to its client (docs/domain.md §9). Names are display-only:
 * nothing routes, dedupes or maps threads by {@code agentName} or {@code projectName}.
 *
 * @param cursor             the stream position of this notice; resuming after it skips it
 * @param noticeId           deterministic id: the same event always has the same id
 * @param version            the notice format version
 * @param agentId            the target agent
 * @param agentName          display name of the agent
 * @param projectId          the Project Service project
 * @param projectName        display name of the project
 * @param workId             the Work item
 * @param positionId         the position (assignment) the agent holds
 * @param runId              the work run
 * @param runRevision        the run's revision fence, {@code run:N}
 * @param assignmentRevision the assignment's revision fence, {@code position:N}
 * @param summary            optional summary text, never used to build the delivered message
 */
public record WorkNotice(String cursor, String noticeId, int version, String agentId, String agentName,
        String projectId, String projectName, String workId, String positionId, String runId, String runRevision,
        String assignmentRevision, Optional<String> summary) {

    public WorkNotice {
        Objects.requireNonNull(cursor, "cursor");
        Objects.requireNonNull(noticeId, "noticeId");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(projectId, "projectId");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(summary, "summary");
    }
}
