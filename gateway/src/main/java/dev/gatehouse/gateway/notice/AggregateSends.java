package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.gateway.notice.NoticeStore.Group;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregates in flight, as this holder of the streams knows them: each is stored {@code sending} with its notices
 * before the host is called, and ends sent (its notices {@code delivered}) or released (its notices open again).
 * Remembers which ones this holder started, and when it took the streams: an aggregate another holder left sending may
 * have a send of that holder still under way until the host's deadline has passed since then.
 */
final class AggregateSends {

    private static final Logger LOG = LoggerFactory.getLogger(AggregateSends.class);

    private final NoticeStore store;
    private final DeliveryBackoff backoff;
    private final Clock clock;
    private final Duration hostDeadline;
    /** Aggregates this holder started and has not settled; any other one still sending is an earlier holder's. */
    private final Set<String> started = new HashSet<>();
    private Instant takenAt;

    /** @param hostDeadline the host's whole-call deadline: the longest a send can be under way */
    AggregateSends(NoticeStore store, DeliveryBackoff backoff, Clock clock, Duration hostDeadline) {
        this.store = store;
        this.backoff = backoff;
        this.clock = clock;
        this.hostDeadline = hostDeadline;
        this.takenAt = clock.instant();
    }

    /** This holder has just taken the streams: every aggregate still sending is an earlier holder's from now on. */
    void streamTaken() {
        takenAt = clock.instant();
        started.clear();
    }

    /**
     * Stores the aggregate as sending with those of its notices still open and in no aggregate, in one statement.
     *
     * @return true when it took every one; otherwise it is dropped (another delivery step has the others) and the
     *         group waits
     */
    boolean start(String aggregateId, Group group, Optional<String> threadId, List<String> noticeIds) {
        int taken = store.startAggregate(aggregateId, group, threadId, noticeIds);
        if (taken != noticeIds.size()) {
            store.releaseAggregate(aggregateId);
            backoff.retryLater(group, "aggregate " + aggregateId + " took " + taken + " of its " + noticeIds.size()
                    + " notices; another delivery step has the others");
            return false;
        }
        started.add(aggregateId);
        return true;
    }

    /** True when reading the thread settles the aggregate: no send of an earlier holder can still be under way. */
    boolean mayRead(NoticeStore.Aggregate aggregate) {
        return started.contains(aggregate.aggregateId()) || !clock.instant().isBefore(takenAt.plus(hostDeadline));
    }

    /** The thread holds the aggregate: its notices are delivered and the thread is the group's current one. */
    void sent(Group group, String aggregateId, String threadId, String how) {
        store.aggregateSent(aggregateId, threadId);
        started.remove(aggregateId);
        backoff.clear(group);
        LOG.info("aggregate {} delivered to thread {} of agent {} ({})", aggregateId, threadId, group.agentId(), how);
    }

    /** The aggregate is known not to be in the thread: its notices are open again. */
    void released(String aggregateId) {
        store.releaseAggregate(aggregateId);
        started.remove(aggregateId);
    }

    /**
     * A send that failed: an unknown outcome stays sending (settled by reading the thread); a definite failure is
     * released, and a thread the host no longer has is unmapped. The group waits either way.
     */
    void unsent(Group group, String aggregateId, ServiceError error, Optional<String> threadId) {
        if (error instanceof ServiceError.Uncertain) {
            backoff.retryLater(group, "aggregate " + aggregateId + " outcome unknown; the thread will be read");
            return;
        }
        released(aggregateId);
        if (error instanceof ServiceError.NotFound && threadId.isPresent()) {
            store.unmapThread(group, threadId.get());
        }
        backoff.retryLater(group, "aggregate " + aggregateId + " not sent: " + error.kind());
    }
}
