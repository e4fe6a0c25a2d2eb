package dev.gatehouse.facade.host;

import dev.gatehouse.facade.error.FacadeResult;
import java.util.List;

/**
 * The part of the host that Project Work notice delivery uses (docs/domain.md §9): the shell of a thread with its
 * owner, creating a thread for an agent and a Project Service project, posting one aggregate message, reading back
 * which aggregates a thread holds (to settle a send whose outcome is unknown); the run-ended events come from the
 * {@link ThreadFeed}. No method throws for a service failure; mutations are never retried here, and one whose
 * outcome is unknown is {@code uncertain}.
 */
public interface NoticeThreads {

    /** The thread's shell read fresh; NotFound("thread") when it does not exist. */
    FacadeResult<NoticeThread> thread(String threadId);

    /**
     * The threads that run as {@code agentId} for Project Service project {@code workProjectId}, newest last (used to
     * find a thread whose creation had an unknown outcome).
     */
    FacadeResult<List<NoticeThread>> threadsOf(String agentId, String workProjectId);

    /**
     * Starts a thread as {@code agentId} for {@code workProjectId} in T3 project {@code t3ProjectId} at {@code modes}
     * (the decision's obligation), with {@code message} as its first message tagged {@code aggregateId} (mutation).
     */
    FacadeResult<NoticeThread> create(String agentId, String workProjectId, String t3ProjectId, ThreadModes modes,
            String message, String aggregateId);

    /** Posts {@code message} tagged {@code aggregateId} into the thread (mutation); NotFound("thread") when absent. */
    FacadeResult<MessageReceipt> post(String threadId, String message, String aggregateId);

    /** The aggregate ids of the messages the thread holds; NotFound("thread") when absent. */
    FacadeResult<List<String>> aggregateIds(String threadId);
}
