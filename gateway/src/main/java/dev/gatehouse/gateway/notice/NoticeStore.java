package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.project.WorkNotice;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The durable delivery state of Project Work notices (docs/domain.md §9), one statement per write so nothing is half
 * written: receipts (dedupe by notice id, stale by revision fence), the agent + project → thread map, aggregates,
 * stream cursors and delivery profiles. Every method throws {@code StoreUnavailableException} when the store does
 * not answer; the caller then ACKs nothing and retries later.
 */
public interface NoticeStore {

    /** An agent and a Project Service project: the unit notices are delivered by. */
    record Group(String agentId, String projectId) {
    }

    /** One stored notice. */
    record Receipt(String noticeId, String agentId, String projectId, String runId, long fence, int version,
            NoticeState state, Optional<String> aggregateId, boolean acked) {
    }

    /**
     * One stored notice as an operator reads it.
     *
     * @param reasons    the policy's reason codes when refused, else empty
     * @param decisionId the id of the decision that refused it, when refused
     * @param threadId   the thread its aggregate went (or is going) to, when it is in one with a known thread
     * @param updatedAt  when its state last changed
     */
    record Listed(Receipt receipt, List<String> reasons, Optional<String> decisionId, Optional<String> threadId,
            Instant receivedAt, Instant updatedAt) {
    }

    /**
     * The aggregates of one agent and project sent into one thread.
     *
     * @param threadId  empty for aggregates still sending as a new thread's first message
     * @param sent      aggregates the thread holds
     * @param sending   aggregates whose outcome is not settled yet
     * @param delivered notices delivered in the sent ones
     * @param lastSent  when the last one was confirmed sent, empty when none was
     * @param current   true when this is the group's current thread
     */
    record ThreadSends(Group group, Optional<String> threadId, long sent, long sending, long delivered,
            Optional<Instant> lastSent, boolean current) {
    }

    /** The outcome of receiving a notice: its stored receipt, and whether this was the first time. */
    record Received(Receipt receipt, boolean first) {
    }

    /** One aggregate message: sending until confirmed, then sent. */
    record Aggregate(String aggregateId, Group group, Optional<String> threadId, boolean sent) {
    }

    /**
     * Stores a notice the first time its id is seen, as {@code stale} when a receipt with a higher fence exists for
     * the same agent, project and run, else {@code pending}. A known id returns the stored row and changes nothing
     * but this: when its state is final, the receipt is marked for another ACK of that state (the Project Service
     * sends a notice again when it did not hear the ACK).
     */
    Received receive(WorkNotice notice, long fence);

    /** The receipts of the group that are pending or coalesced and in no aggregate, oldest first. */
    List<Receipt> open(Group group);

    /** Groups with open receipts or aggregates still sending. */
    List<Group> active();

    /** Marks pending receipts coalesced. */
    void coalesce(List<String> noticeIds);

    /** Marks a pending or coalesced receipt refused, with the policy's reason codes and the decision id. */
    void refuse(String noticeId, List<String> reasonCodes, String decisionId);

    /** Receipts in a final state whose ACK has not reached the Project Service. */
    List<Receipt> unacknowledged();

    void acknowledged(String noticeId);

    /** The agent's current thread for the project. */
    Optional<String> thread(Group group);

    /** The group whose current thread this is. */
    Optional<Group> groupOf(String threadId);

    /** Forgets the mapping when it still names {@code threadId} (the thread is gone). */
    void unmapThread(Group group, String threadId);

    /**
     * Creates aggregate {@code aggregateId} (sending) and puts those of the given receipts that are still open and
     * in no aggregate into it, in one statement.
     *
     * @param threadId the thread it goes to, empty when it will be a new thread's first message
     * @return how many receipts it took: fewer than {@code noticeIds} when another step took some first
     */
    int startAggregate(String aggregateId, Group group, Optional<String> threadId, List<String> noticeIds);

    /** The group's aggregates still sending (outcome unknown until settled). */
    List<Aggregate> sending(Group group);

    /**
     * Marks the aggregate sent into {@code threadId}, its receipts delivered and the thread the group's current one,
     * in one statement.
     */
    void aggregateSent(String aggregateId, String threadId);

    /** Drops a sending aggregate that is known not to have arrived; its receipts are open again. */
    void releaseAggregate(String aggregateId);

    /** Receipts per state, every state present. */
    Map<NoticeState, Long> counts();

    /** Receipts per state of the query's agent and project (its state and limit ignored), every state present. */
    Map<NoticeState, Long> counts(NoticeQuery query);

    /** The receipts the query selects, newest received first, at most {@code query.limit()}. */
    List<Listed> list(NoticeQuery query);

    /**
     * The aggregates per agent, project and thread of the query's agent and project (its state ignored), the most
     * recently active first, at most {@code query.limit()}.
     */
    List<ThreadSends> threads(NoticeQuery query);

    /** Where stream {@code stream} resumes. */
    Optional<String> cursor(String stream);

    void saveCursor(String stream, String position);

    Optional<DeliveryProfile> profile(String agentId);

    void putProfile(DeliveryProfile profile);
}
