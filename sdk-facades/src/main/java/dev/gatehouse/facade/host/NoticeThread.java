package dev.gatehouse.facade.host;

import java.util.Optional;

/**
 * A thread's shell as notice delivery needs it, read fresh.
 *
 * @param threadId      the thread
 * @param archived      an archived thread is no longer an agent's current thread
 * @param activeRunId   the active run (the thread is busy), empty when idle
 * @param agentId       the logical agent the thread runs as, empty when the host does not say
 * @param workProjectId the Project Service project the thread works for, empty when none
 */
public record NoticeThread(String threadId, boolean archived, Optional<String> activeRunId, Optional<String> agentId,
        Optional<String> workProjectId) {

    /** True while a run is active: notices are gathered until it ends. */
    public boolean busy() {
        return activeRunId.isPresent();
    }
}
