package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.host.NoticeThreads;
import dev.gatehouse.facade.project.NoticeFeed;
import dev.gatehouse.facade.project.NoticePage;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.gate.GatePipeline;
import dev.gatehouse.gateway.notice.NoticeStore.Group;
import dev.gatehouse.gateway.notice.NoticeStore.Receipt;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PEP of Project Work notices (docs/domain.md §9; docs/design.md, "Project Work notices"): one delivery step at a
 * time for one agent + project, each part done by its own class, in this order, so a crash anywhere loses nothing
 * and delivers nothing twice:
 * <ol>
 *   <li>{@link NoticeIntake}: the receipt is inserted (a notice id seen before changes nothing; a lower fence than one
 *       known is {@code stale}), then the stream cursor is saved;</li>
 *   <li>{@link AggregateSettlement}: an aggregate whose send had an unknown outcome is settled by reading the thread
 *       before anything else is sent for the group;</li>
 *   <li>{@link NoticeDecisions}: per notice a decision is made and logged through the gate's steps before it is acted
 *       on; a refusal is stored as {@code refused}; a fault leaves the notice pending;</li>
 *   <li>while the mapped thread is busy, allowed notices become {@code coalesced};</li>
 *   <li>{@link AggregateSender}: otherwise the aggregate is stored with its notices ({@code sending}) before the host
 *       is called, and marked sent with its notices {@code delivered} in one statement on the host's confirmation
 *       ({@link AggregateSends}); an aggregate is sent only when it took every notice it was built for;</li>
 *   <li>{@link NoticeAcks}: ACKs go out only for receipts whose final state is committed.</li>
 * </ol>
 * A group whose delivery failed waits ({@link DeliveryBackoff}); a refused Project credential is reported in
 * {@link NoticeStatus} and deletes no session, thread or mapping. All methods are serialised; {@link NoticeConsumer}
 * calls them only while this replica holds the streams ({@link StreamLock}).
 */
@Singleton
public class NoticeDelivery {

    /** Stream name of the Project notice stream in {@link NoticeStatus} and the cursor table. */
    public static final String PROJECT_STREAM = "project";
    /** Stream name of the host's thread events. */
    public static final String HOST_STREAM = "host";

    private static final Logger LOG = LoggerFactory.getLogger(NoticeDelivery.class);

    private final NoticeStore store;
    private final NoticeIntake intake;
    private final NoticeDecisions decisions;
    private final AggregateSends sends;
    private final AggregateSender sender;
    private final AggregateSettlement settlement;
    private final NoticeAcks acks;
    private final DeliveryBackoff backoff;
    private final GatePipeline pipeline;

    @Inject
    public NoticeDelivery(NoticeProperties properties, NoticeStore store, PolicyDecisionPoint pdp,
            GatePipeline pipeline, AgentDirectory directory, NoticeFeed feed, NoticeThreads host,
            ProjectFacade projects, NoticeStatus status,
            @Value("${gatehouse.services.host.deadline:10s}") Duration hostDeadline) {
        this(properties, store, pdp, pipeline, directory, feed, host, projects, status, Clock.systemUTC(),
                hostDeadline);
    }

    /**
     * With the clock backoff and the wait for an earlier holder's sends are measured on (tests step it instead of
     * waiting), and the host's whole-call deadline (the longest a send can be under way). The streams count as taken
     * now ({@link #streamTaken}).
     */
    public NoticeDelivery(NoticeProperties properties, NoticeStore store, PolicyDecisionPoint pdp,
            GatePipeline pipeline, AgentDirectory directory, NoticeFeed feed, NoticeThreads host,
            ProjectFacade projects, NoticeStatus status, Clock clock, Duration hostDeadline) {
        this.store = store;
        this.pipeline = pipeline;
        this.backoff = new DeliveryBackoff(properties.getMaxBackoff(), clock);
        this.intake = new NoticeIntake(store);
        this.decisions = new NoticeDecisions(properties.getClientId(), store, host, directory, pdp, pipeline);
        this.sends = new AggregateSends(store, backoff, clock, hostDeadline);
        this.sender = new AggregateSender(properties.getHostProject(), projects, host, status, sends, backoff);
        this.settlement = new AggregateSettlement(store, host, sends, backoff);
        this.acks = new NoticeAcks(properties.getClientId(), feed, store, status);
    }

    /**
     * This replica has just taken the streams: every aggregate still sending is an earlier holder's from now on, and
     * is settled no sooner than the host's deadline after now.
     */
    public synchronized void streamTaken() {
        sends.streamTaken();
    }

    /**
     * Takes one page of the notice stream: stores every notice, then saves the page's cursor, then delivers what can
     * be delivered now for the agents it named, then sends the ACKs that are due.
     */
    public synchronized void receive(NoticePage page) {
        intake.receive(page).forEach(this::deliver);
        acks.acknowledge();
    }

    /** A turn ended on {@code threadId} (host event): delivers what was gathered for its agent and project. */
    public synchronized void turnEnded(String threadId) {
        store.groupOf(threadId).ifPresent(this::deliver);
        acks.acknowledge();
    }

    /**
     * The fallback pass: every agent + project with open notices or an unsettled aggregate whose backoff has passed
     * (a missed run-ended event, a host or Project Service that was down), then the ACKs that are due.
     */
    public synchronized void sweep() {
        for (Group group : store.active()) {
            if (backoff.due(group)) {
                deliver(group);
            }
        }
        acks.acknowledge();
    }

    /** One delivery step for one agent + project. */
    private void deliver(Group group) {
        if (!settlement.settle(group)) {
            return;
        }
        List<Receipt> open = store.open(group);
        if (open.isEmpty()) {
            backoff.clear(group);
            return;
        }
        NoticeDecisions.Pass pass = decisions.decide(group, open);
        for (NoticeDecisions.Refusal refusal : pass.refused()) {
            store.refuse(refusal.receipt().noticeId(), refusal.codes(), refusal.decisionId().toString());
            LOG.info("notice {} for agent {} refused: {}", refusal.receipt().noticeId(), group.agentId(),
                    refusal.codes());
        }
        if (pass.retry().isPresent()) {
            backoff.retryLater(group, pass.retry().get());
            return;
        }
        ThreadLookup thread = pass.thread().orElseThrow();
        if (thread.busy() && pass.create().isEmpty()) {
            store.coalesce(pass.allowed().stream().map(Receipt::noticeId).toList());
            return;
        }
        if (!pass.allowed().isEmpty()) {
            pipeline.handler(() -> sender.send(group, pass.allowed(), thread, pass.create()));
        }
    }
}
