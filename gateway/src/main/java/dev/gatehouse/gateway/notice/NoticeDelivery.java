package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.NoticeThread;
import dev.gatehouse.facade.host.NoticeThreads;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.facade.project.NoticeFeed;
import dev.gatehouse.facade.project.NoticePage;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.project.WorkNotice;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.audit.LogResult;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.notice.NoticeStore.Group;
import dev.gatehouse.gateway.notice.NoticeStore.Receipt;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.NoticeInput;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PEP of Project Work notices (docs/domain.md §9): stores each notice, asks the policy whether and where it may be
 * delivered, gathers notices while the agent's thread has an active run, and after the turn sends one aggregate
 * message built from the Project Service's answer for the agent's open work. Decides nothing itself.
 *
 * <p>Order of durable steps, so a crash anywhere loses nothing and delivers nothing twice:
 * <ol>
 *   <li>the receipt is inserted (a notice id seen before changes nothing; a lower fence than one known is
 *       {@code stale}), then the stream cursor is saved;</li>
 *   <li>per notice a decision is made and logged (before acting); a refusal is stored as {@code refused}; a fault
 *       ({@code unavailable}, PDP down, log not written) leaves the notice pending;</li>
 *   <li>while the mapped thread is busy, allowed notices become {@code coalesced};</li>
 *   <li>otherwise the aggregate row is stored with its notices ({@code sending}) before the host is called; the
 *       host's confirmation marks it sent and its notices {@code delivered} in one statement;</li>
 *   <li>a send whose outcome is unknown stays {@code sending}, and the next pass reads the thread for the aggregate
 *       id: found is delivered, absent is released and sent again; never resent without that read. An aggregate
 *       that an earlier holder of the streams (another replica, or this process before it lost the streams) left
 *       sending is read only once the host's deadline has passed since this holder took the streams: a send of
 *       that holder may still be under way until then;</li>
 *   <li>an aggregate is sent only when it took every notice it was built for (a notice is in at most one aggregate),
 *       so two delivery steps that raced for the same notices never both send;</li>
 *   <li>ACKs go out only for receipts whose final state is committed, and are repeated until the service took them
 *       (an ACK is idempotent there); a notice received again after its final state is ACKed again with it, so a
 *       Project Service that did not hear the first ACK stops re-sending it.</li>
 * </ol>
 * Failures wait with exponential backoff per agent + project (2 s doubling up to {@code max-backoff}); a refused
 * Project credential is reported in {@link NoticeStatus} and deletes no session, thread or mapping. All methods are
 * serialised: one delivery step at a time; {@link NoticeConsumer} calls them only while this replica holds the
 * streams ({@link StreamLock}).
 */
@Singleton
public class NoticeDelivery {

    /** Stream name of the Project notice stream in {@link NoticeStatus} and the cursor table. */
    public static final String PROJECT_STREAM = "project";
    /** Stream name of the host's thread events. */
    public static final String HOST_STREAM = "host";

    private static final Logger LOG = LoggerFactory.getLogger(NoticeDelivery.class);
    private static final Pattern FENCE = Pattern.compile("position:([0-9]{1,18})");
    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(2);

    private final NoticeProperties properties;
    private final NoticeStore store;
    private final PolicyDecisionPoint pdp;
    private final DecisionLog decisionLog;
    private final AgentDirectory directory;
    private final NoticeFeed feed;
    private final NoticeThreads host;
    private final ProjectFacade projects;
    private final NoticeStatus status;
    private final Clock clock;
    private final Duration hostDeadline;
    private final Map<Group, Backoff> backoff = new HashMap<>();
    /** Aggregates this holder started and has not settled; any other one still sending is an earlier holder's. */
    private final Set<String> started = new HashSet<>();
    private Instant takenAt;

    private record Backoff(Duration delay, Instant until) {
    }

    @Inject
    public NoticeDelivery(NoticeProperties properties, NoticeStore store, PolicyDecisionPoint pdp, DecisionLog decisionLog,
            AgentDirectory directory, NoticeFeed feed, NoticeThreads host, ProjectFacade projects,
            NoticeStatus status, @Value("${gatehouse.services.host.deadline:10s}") Duration hostDeadline) {
        this(properties, store, pdp, decisionLog, directory, feed, host, projects, status, Clock.systemUTC(),
                hostDeadline);
    }

    /**
     * With the clock backoff and the wait for an earlier holder's sends are measured on (tests step it instead of
     * waiting), and the host's whole-call deadline (the longest a send can be under way). The streams count as taken
     * now ({@link #streamTaken}).
     */
    public NoticeDelivery(NoticeProperties properties, NoticeStore store, PolicyDecisionPoint pdp,
            DecisionLog decisionLog,
            AgentDirectory directory, NoticeFeed feed, NoticeThreads host, ProjectFacade projects,
            NoticeStatus status, Clock clock, Duration hostDeadline) {
        this.properties = properties;
        this.store = store;
        this.pdp = pdp;
        this.decisionLog = decisionLog;
        this.directory = directory;
        this.feed = feed;
        this.host = host;
        this.projects = projects;
        this.status = status;
        this.clock = clock;
        this.hostDeadline = hostDeadline;
        this.takenAt = clock.instant();
    }

    /**
     * This replica has just taken the streams: every aggregate still sending is an earlier holder's from now on, and
     * is settled no sooner than the host's deadline after now.
     */
    public synchronized void streamTaken() {
        takenAt = clock.instant();
        started.clear();
    }

    /**
     * Takes one page of the notice stream: stores every notice, then saves the page's cursor, then delivers what can
     * be delivered now for the agents it named, then sends the ACKs that are due.
     */
    public synchronized void receive(NoticePage page) {
        List<Group> touched = new ArrayList<>();
        for (WorkNotice notice : page.notices()) {
            NoticeStore.Received received = store.receive(notice, fence(notice));
            Receipt receipt = received.receipt();
            if (!received.first()) {
                LOG.info("notice {} received again; already {}{}", notice.noticeId(), receipt.state().wire(),
                        receipt.state().isFinal() ? ", ACKed again" : "");
            } else if (receipt.state() == NoticeState.STALE) {
                LOG.info("notice {} is stale: a newer assignment of run {} is known", notice.noticeId(),
                        notice.runId());
            }
            Group group = new Group(notice.agentId(), notice.projectId());
            if (!touched.contains(group)) {
                touched.add(group);
            }
        }
        store.saveCursor(PROJECT_STREAM, page.cursor());
        touched.forEach(this::deliver);
        acknowledge();
    }

    /** A turn ended on {@code threadId} (host event): delivers what was gathered for its agent and project. */
    public synchronized void turnEnded(String threadId) {
        store.groupOf(threadId).ifPresent(this::deliver);
        acknowledge();
    }

    /**
     * The fallback pass: every agent + project with open notices or an unsettled aggregate whose backoff has passed
     * (a missed run-ended event, a host or Project Service that was down), then the ACKs that are due.
     */
    public synchronized void sweep() {
        Instant now = clock.instant();
        for (Group group : store.active()) {
            Backoff wait = backoff.get(group);
            if (wait == null || !now.isBefore(wait.until())) {
                deliver(group);
            }
        }
        acknowledge();
    }

    /** One delivery step for one agent + project. */
    private void deliver(Group group) {
        if (!settle(group)) {
            return;
        }
        List<Receipt> open = store.open(group);
        if (open.isEmpty()) {
            backoff.remove(group);
            return;
        }
        ThreadLookup thread = lookup(group);
        if (thread.outcome() == ThreadLookup.Outcome.UNAVAILABLE) {
            retryLater(group, "the host could not report thread " + thread.threadId().orElse("?"));
            return;
        }
        Optional<ServedPolicy> policy = pdp.serving();
        if (policy.isEmpty()) {
            retryLater(group, "no policy revision is serving");
            return;
        }
        Optional<DeliveryProfile> profile = store.profile(group.agentId());
        AgentSettings settings = directory.settings(AgentKey.thread(group.agentId()));
        List<Receipt> allowed = new ArrayList<>();
        Optional<ThreadModes> create = Optional.empty();
        boolean busy = thread.busy();
        for (Receipt receipt : open) {
            if (busy && receipt.state() == NoticeState.COALESCED) {
                continue; // allowed for this thread already; decided again when the turn ends
            }
            NoticeInput input = NoticeFacts.input(properties.getClientId(), receipt, profile, settings, thread);
            PolicyOutcome<Decision> outcome = policy.get().notice(input);
            DecisionRecord record = DecisionRecord.forNotice(DecisionInputMapper.forNotice(input), group.agentId(),
                    outcome);
            if (decisionLog.record(record) instanceof LogResult.NotWritten notWritten) {
                retryLater(group, "decision log: " + notWritten.detail());
                return;
            }
            if (!(outcome instanceof PolicyOutcome.Decided<Decision> decided)) {
                retryLater(group, "the PDP could not decide notice " + receipt.noticeId());
                return;
            }
            Decision decision = decided.value();
            List<String> codes = decision.reasons().stream().map(Decision.Reason::code).toList();
            if (decision.allow()) {
                allowed.add(receipt);
                if (decision.obligations().mode("runtimeMode").isPresent()) {
                    create = Optional.of(new ThreadModes(decision.obligations().mode("runtimeMode").get(),
                            decision.obligations().mode("interactionMode").orElseThrow()));
                }
            } else if (codes.stream().anyMatch(policy.get().contents()::retryable)) {
                retryLater(group, "notice " + receipt.noticeId() + " could not be decided: a fact is unavailable");
                return;
            } else {
                store.refuse(receipt.noticeId(), codes, record.decisionId().toString());
                LOG.info("notice {} for agent {} refused: {}", receipt.noticeId(), group.agentId(), codes);
            }
        }
        if (busy && create.isEmpty()) {
            store.coalesce(allowed.stream().map(Receipt::noticeId).toList());
            return;
        }
        if (allowed.isEmpty()) {
            return;
        }
        send(group, allowed, thread, create);
    }

    /** Builds the aggregate from the authoritative work list and sends it, stored first as sending. */
    private void send(Group group, List<Receipt> notices, ThreadLookup thread, Optional<ThreadModes> create) {
        Optional<String> hostProject = properties.getHostProject();
        if (create.isPresent() && hostProject.isEmpty()) {
            retryLater(group, "gatehouse.notices.host-project is not set; no thread can be created");
            return;
        }
        FacadeResult<List<WorkRun>> work = projects.listWork(new ProjectBinding(group.agentId(), group.projectId()));
        if (work instanceof FacadeResult.Failed<List<WorkRun>> failed) {
            projectFailed(failed.error());
            retryLater(group, "the Project Service did not list the work: " + failed.error().kind());
            return;
        }
        String message = AggregateMessage.text(group.projectId(), ((FacadeResult.Ok<List<WorkRun>>) work).value());
        List<String> ids = notices.stream().map(Receipt::noticeId).toList();
        String aggregateId = AggregateMessage.id(group, ids);
        Optional<String> target = create.isPresent() ? Optional.empty() : thread.threadId();
        int taken = store.startAggregate(aggregateId, group, target, ids);
        if (taken != ids.size()) {
            store.releaseAggregate(aggregateId);
            retryLater(group, "aggregate " + aggregateId + " took " + taken + " of its " + ids.size()
                    + " notices; another delivery step has the others");
            return;
        }
        started.add(aggregateId);
        if (create.isPresent()) {
            FacadeResult<NoticeThread> created = host.create(group.agentId(), group.projectId(), hostProject.get(),
                    create.get(), message, aggregateId);
            if (created instanceof FacadeResult.Ok<NoticeThread> ok) {
                sent(group, aggregateId, ok.value().threadId(), ids.size() + " notice(s), new thread");
            } else {
                unsent(group, aggregateId, ((FacadeResult.Failed<NoticeThread>) created).error(), Optional.empty());
            }
        } else {
            var posted = host.post(target.orElseThrow(), message, aggregateId);
            if (posted instanceof FacadeResult.Ok<?>) {
                sent(group, aggregateId, target.get(), ids.size() + " notice(s)");
            } else {
                unsent(group, aggregateId, ((FacadeResult.Failed<?>) posted).error(), target);
            }
        }
    }

    private void sent(Group group, String aggregateId, String threadId, String how) {
        store.aggregateSent(aggregateId, threadId);
        started.remove(aggregateId);
        backoff.remove(group);
        LOG.info("aggregate {} delivered to thread {} of agent {} ({})", aggregateId, threadId, group.agentId(), how);
    }

    /** A send that failed: unknown outcome stays sending (settled by reading); a definite failure is released. */
    private void unsent(Group group, String aggregateId, ServiceError error, Optional<String> threadId) {
        if (error instanceof ServiceError.Uncertain) {
            retryLater(group, "aggregate " + aggregateId + " outcome unknown; the thread will be read");
            return;
        }
        store.releaseAggregate(aggregateId);
        started.remove(aggregateId);
        if (error instanceof ServiceError.NotFound && threadId.isPresent()) {
            store.unmapThread(group, threadId.get());
        }
        retryLater(group, "aggregate " + aggregateId + " not sent: " + error.kind());
    }

    /**
     * Settles the group's aggregates whose outcome is unknown by reading the thread (or, for a thread being created,
     * the agent's threads for the project): the aggregate id found means sent, absent means released.
     *
     * @return true when nothing is left unsettled
     */
    private boolean settle(Group group) {
        for (NoticeStore.Aggregate aggregate : store.sending(group)) {
            if (!started.contains(aggregate.aggregateId()) && clock.instant().isBefore(takenAt.plus(hostDeadline))) {
                retryLater(group, "aggregate " + aggregate.aggregateId() + " was left sending by an earlier holder of"
                        + " the streams; it is read once no send of that holder can still be under way");
                return false;
            }
            List<String> threads;
            if (aggregate.threadId().isPresent()) {
                threads = List.of(aggregate.threadId().get());
            } else {
                FacadeResult<List<NoticeThread>> found = host.threadsOf(group.agentId(), group.projectId());
                if (!(found instanceof FacadeResult.Ok<List<NoticeThread>> ok)) {
                    retryLater(group, "cannot list the agent's threads to settle " + aggregate.aggregateId());
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
                    retryLater(group, "cannot read thread " + threadId + " to settle " + aggregate.aggregateId());
                    return false;
                }
            }
            if (holder.isPresent()) {
                sent(group, aggregate.aggregateId(), holder.get(), "found in the thread after an unknown outcome");
            } else {
                LOG.info("aggregate {} is not in the thread; its notices will be sent again", aggregate.aggregateId());
                store.releaseAggregate(aggregate.aggregateId());
                started.remove(aggregate.aggregateId());
            }
        }
        return true;
    }

    private ThreadLookup lookup(Group group) {
        Optional<String> mapped = store.thread(group);
        if (mapped.isEmpty()) {
            return ThreadLookup.none();
        }
        FacadeResult<NoticeThread> shell = host.thread(mapped.get());
        if (shell instanceof FacadeResult.Ok<NoticeThread> ok) {
            return ThreadLookup.found(ok.value());
        }
        ServiceError error = ((FacadeResult.Failed<NoticeThread>) shell).error();
        return error instanceof ServiceError.NotFound ? ThreadLookup.notFound(mapped.get())
                : ThreadLookup.unavailable(mapped.get());
    }

    /** Sends the ACK of every receipt whose final state is stored; stops at the first failure (retried later). */
    private void acknowledge() {
        Optional<String> clientId = properties.getClientId();
        if (clientId.isEmpty()) {
            return;
        }
        for (Receipt receipt : store.unacknowledged()) {
            FacadeResult<String> ack = feed.acknowledge(clientId.get(), receipt.noticeId(), receipt.state().wire());
            if (ack instanceof FacadeResult.Failed<String> failed) {
                projectFailed(failed.error());
                LOG.warn("ACK of notice {} not taken ({}); repeated later", receipt.noticeId(), failed.error().kind());
                return;
            }
            store.acknowledged(receipt.noticeId());
        }
    }

    private void projectFailed(ServiceError error) {
        if (error instanceof ServiceError.Authentication) {
            LOG.warn("the Project Service refused the notice client's credential; sessions and threads are kept");
        }
        status.failed(PROJECT_STREAM, error);
    }

    private void retryLater(Group group, String why) {
        Backoff previous = backoff.get(group);
        Duration wait = previous == null ? FIRST_BACKOFF : previous.delay().multipliedBy(2);
        if (wait.compareTo(properties.getMaxBackoff()) > 0) {
            wait = properties.getMaxBackoff();
        }
        backoff.put(group, new Backoff(wait, clock.instant().plus(wait)));
        LOG.info("notices of agent {} project {} wait {} ms: {}", group.agentId(), group.projectId(), wait.toMillis(),
                why);
    }

    /** The assignment revision number; a notice without a readable one orders before every other (fence 0). */
    private static long fence(WorkNotice notice) {
        Matcher matcher = notice.assignmentRevision() == null ? null : FENCE.matcher(notice.assignmentRevision());
        if (matcher == null || !matcher.matches()) {
            LOG.warn("notice {} has no readable assignment revision; it is ordered first", notice.noticeId());
            return 0;
        }
        return Long.parseLong(matcher.group(1));
    }
}
