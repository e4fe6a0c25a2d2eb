package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.NoticeThread;
import dev.gatehouse.facade.host.NoticeThreads;
import dev.gatehouse.gateway.notice.NoticeStore.Group;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles the aggregates whose send had an unknown outcome, by reading the thread (or, for a thread being created,
 * the agent's threads for the project): the aggregate id found there means sent, absent means released and sent again
 * later. Never by sending blindly; an aggregate an earlier holder of the streams left sending is read only once no
 * send of that holder can still be under way ({@link AggregateSends#mayRead}).
 */
final class AggregateSettlement {

    private static final Logger LOG = LoggerFactory.getLogger(AggregateSettlement.class);

    private final NoticeStore store;
    private final NoticeThreads host;
    private final AggregateSends sends;
    private final DeliveryBackoff backoff;

    AggregateSettlement(NoticeStore store, NoticeThreads host, AggregateSends sends, DeliveryBackoff backoff) {
        this.store = store;
        this.host = host;
        this.sends = sends;
        this.backoff = backoff;
    }

    /**
     * Settles every aggregate of the group still sending.
     *
     * @return true when nothing is left unsettled (the group may be delivered); false when it waits
     */
    boolean settle(Group group) {
        for (NoticeStore.Aggregate aggregate : store.sending(group)) {
            if (!sends.mayRead(aggregate)) {
                backoff.retryLater(group, "aggregate " + aggregate.aggregateId() + " was left sending by an earlier"
                        + " holder of the streams; it is read once no send of that holder can still be under way");
                return false;
            }
            List<String> threads;
            if (aggregate.threadId().isPresent()) {
                threads = List.of(aggregate.threadId().get());
            } else {
                FacadeResult<List<NoticeThread>> found = host.threadsOf(group.agentId(), group.projectId());
                if (!(found instanceof FacadeResult.Ok<List<NoticeThread>> ok)) {
                    backoff.retryLater(group, "cannot list the agent's threads to settle " + aggregate.aggregateId());
                    return false;
                }
                threads = ok.value().stream().map(NoticeThread::threadId).toList();
            }
            Optional<String> holder = Optional.empty();
            for (String threadId : threads) {
                FacadeResult<List<String>> ids = host.aggregateIds(threadId);
                if (ids instanceof FacadeResult.Ok<List<String>> ok) {
                    if (ok.value().contains(aggregate.aggregateId())) {
                        holder = Optional.of(threadId);
                        break;
                    }
                } else if (!(((FacadeResult.Failed<List<String>>) ids).error() instanceof ServiceError.NotFound)) {
                    backoff.retryLater(group, "cannot read thread " + threadId + " to settle "
                            + aggregate.aggregateId());
                    return false;
                }
            }
            if (holder.isPresent()) {
                sends.sent(group, aggregate.aggregateId(), holder.get(),
                        "found in the thread after an unknown outcome");
            } else {
                LOG.info("aggregate {} is not in the thread; its notices will be sent again", aggregate.aggregateId());
                sends.released(aggregate.aggregateId());
            }
        }
        return true;
    }
}
