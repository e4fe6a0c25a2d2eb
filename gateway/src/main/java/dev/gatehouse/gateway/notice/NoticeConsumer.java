package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.host.ThreadEvent;
import dev.gatehouse.facade.host.ThreadEventPage;
import dev.gatehouse.facade.host.ThreadFeed;
import dev.gatehouse.facade.host.ThreadListing;
import dev.gatehouse.facade.project.NoticeFeed;
import dev.gatehouse.facade.project.NoticePage;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs notice delivery when {@code gatehouse.notices.enabled}, on every replica; exactly one replica at a time holds
 * the streams ({@link StreamLock}) and delivers. One thread ({@code gatehouse-notice-streams}) tries every
 * {@code lock-interval} to take the streams while another replica holds them (or none does), and, while this replica
 * holds them, confirms the hold as often. While held, three threads run: one long-polls the Project notice stream from
 * its stored cursor, one long-polls the host's thread events (a run-ended event triggers delivery for that thread),
 * and one sweeps every {@code sweep-interval} as the fallback for a missed event and the retry of failed deliveries.
 * A hold that cannot be confirmed stops them, and the streams are taken again only after all three have ended, so
 * one process never delivers under two holds. A stream that fails (a refused credential included) is reported in
 * {@link NoticeStatus} and polled again after a pause that doubles up to {@code max-backoff}; consumption resumes
 * from the stored cursor. Stopped with the context, which lets go of the streams.
 */
@Context
@Requires(property = "gatehouse.notices.enabled", value = "true")
public class NoticeConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(NoticeConsumer.class);

    private final NoticeProperties properties;
    private final NoticeDelivery delivery;
    private final NoticeStore store;
    private final NoticeFeed feed;
    private final ThreadFeed threadFeed;
    private final NoticeStatus status;
    private final StreamLock lock;
    private final String replica;
    private final Thread supervisor;
    private volatile boolean running = true;

    public NoticeConsumer(NoticeProperties properties, NoticeDelivery delivery, NoticeStore store, NoticeFeed feed,
            ThreadFeed threadFeed, NoticeStatus status, StreamLock lock) {
        this.properties = properties;
        this.delivery = delivery;
        this.store = store;
        this.feed = feed;
        this.threadFeed = threadFeed;
        this.status = status;
        this.lock = lock;
        this.replica = properties.getReplicaName();
        this.supervisor = new Thread(this::supervise, "gatehouse-notice-streams");
        supervisor.setDaemon(true);
    }

    @PostConstruct
    void start() {
        String clientId = properties.getClientId().orElseThrow(() -> new IllegalStateException(
                "gatehouse.notices.enabled is true but gatehouse.notices.client-id is not set"));
        status.hold(replica, Optional.empty());
        supervisor.start();
        LOG.info("replica {} consumes Project Work notices for client {} while it holds the streams", replica,
                clientId);
    }

    @PreDestroy
    void stop() {
        running = false;
        supervisor.interrupt();
        try {
            supervisor.join(properties.getLockInterval().multipliedBy(5).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The three consuming threads of one hold of the streams. */
    private final class Hold {
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean active = true;

        Hold(String clientId) {
            threads.add(loop("gatehouse-notices", this, () -> pollNotices(clientId)));
            threads.add(loop("gatehouse-thread-events", this, NoticeConsumer.this::pollEvents));
            threads.add(loop("gatehouse-notice-sweep", this, NoticeConsumer.this::sweep));
            threads.forEach(Thread::start);
        }

        boolean active() {
            return active && running;
        }

        void stop() {
            active = false;
            threads.forEach(Thread::interrupt);
        }

        /** True once every thread of this hold has returned (a step under way finishes first). */
        boolean ended() {
            return threads.stream().noneMatch(Thread::isAlive);
        }
    }

    /**
     * Takes the streams when free, confirms them while held, and starts or stops the consuming threads accordingly.
     * A store that does not answer leaves things as they are until the next interval, except a hold that cannot be
     * confirmed, which is given up.
     */
    private void supervise() {
        String clientId = properties.getClientId().orElseThrow();
        Hold current = null;
        Hold previous = null;
        while (running) {
            try {
                if (current != null && !lock.confirm()) {
                    LOG.warn("replica {} could not confirm its hold of the notice streams; it stops delivering",
                            replica);
                    current.stop();
                    previous = current;
                    current = null;
                    status.hold(replica, Optional.empty());
                }
                if (current == null && (previous == null || previous.ended())) {
                    if (lock.tryTake()) {
                        delivery.streamTaken();
                        current = new Hold(clientId);
                        status.hold(replica, Optional.of(replica));
                        LOG.info("replica {} holds the notice streams and delivers", replica);
                    } else {
                        status.hold(replica, lock.holder());
                    }
                }
            } catch (StoreUnavailableException e) {
                status.hold(replica, current == null ? Optional.empty() : Optional.of(replica));
                LOG.debug("notice stream lock: {}", e.getMessage());
            }
            try {
                Thread.sleep(properties.getLockInterval().toMillis());
            } catch (InterruptedException e) {
                break;
            }
        }
        if (current != null) {
            current.stop();
            // A step under way ends before the streams are let go, unless the context is gone first.
            for (int wait = 0; wait < 30 && !current.ended(); wait++) {
                try {
                    Thread.sleep(properties.getLockInterval().toMillis() / 10 + 1);
                } catch (InterruptedException e) {
                    break;
                }
            }
        }
        lock.release();
    }

    /** One step of a loop: returns how long to pause before the next (zero: go on at once). */
    @FunctionalInterface
    private interface Step {
        Duration run() throws InterruptedException, FailedStream;
    }

    private Thread loop(String name, Hold hold, Step step) {
        Thread thread = new Thread(() -> {
            Duration failures = Duration.ZERO;
            while (hold.active()) {
                try {
                    Duration pause = step.run();
                    if (!pause.isZero()) {
                        Thread.sleep(pause.toMillis());
                    }
                    failures = Duration.ZERO;
                } catch (InterruptedException e) {
                    return;
                } catch (StoreUnavailableException | FailedStream e) {
                    failures = failures.isZero() ? Duration.ofSeconds(1) : failures.multipliedBy(2);
                    if (failures.compareTo(properties.getMaxBackoff()) > 0) {
                        failures = properties.getMaxBackoff();
                    }
                    LOG.warn("{}: {}; next try in {} ms", name, e.getMessage(), failures.toMillis());
                    try {
                        Thread.sleep(failures.toMillis());
                    } catch (InterruptedException stopped) {
                        return;
                    }
                } catch (RuntimeException e) {
                    LOG.error("{} failed; it goes on after a pause", name, e);
                    try {
                        Thread.sleep(properties.getMaxBackoff().toMillis());
                    } catch (InterruptedException stopped) {
                        return;
                    }
                }
            }
        }, name);
        thread.setDaemon(true);
        return thread;
    }

    private Duration pollNotices(String clientId) throws FailedStream {
        FacadeResult<NoticePage> page = feed.poll(clientId, store.cursor(NoticeDelivery.PROJECT_STREAM),
                properties.getPollWait().toMillis());
        if (page instanceof FacadeResult.Failed<NoticePage> failed) {
            status.failed(NoticeDelivery.PROJECT_STREAM, failed.error());
            throw new FailedStream("Project notice stream: " + failed.error().kind());
        }
        status.ok(NoticeDelivery.PROJECT_STREAM);
        delivery.receive(((FacadeResult.Ok<NoticePage>) page).value());
        return Duration.ZERO;
    }

    /**
     * One page of the host's thread events; a run that ended triggers delivery for its thread. When the host no
     * longer holds events after the stored cursor, consumption goes on from the host's present (its list's cursor):
     * a turn that ended in between is found by the sweep.
     */
    private Duration pollEvents() throws FailedStream {
        FacadeResult<ThreadEventPage> page = threadFeed.events(store.cursor(NoticeDelivery.HOST_STREAM),
                properties.getPollWait().toMillis());
        if (page instanceof FacadeResult.Failed<ThreadEventPage> gone && ThreadFeed.cursorGone(gone.error())) {
            LOG.warn("host thread events: the stored cursor is gone; going on from the host's present, the sweep"
                    + " covers turns that ended in between");
            return restartFromPresent();
        }
        if (page instanceof FacadeResult.Failed<ThreadEventPage> failed) {
            status.failed(NoticeDelivery.HOST_STREAM, failed.error());
            throw new FailedStream("host thread events: " + failed.error().kind());
        }
        status.ok(NoticeDelivery.HOST_STREAM);
        ThreadEventPage events = ((FacadeResult.Ok<ThreadEventPage>) page).value();
        for (ThreadEvent event : events.events()) {
            if (event.runEnded()) {
                delivery.turnEnded(event.threadId());
            }
        }
        store.saveCursor(NoticeDelivery.HOST_STREAM, events.cursor());
        return Duration.ZERO;
    }

    private Duration restartFromPresent() throws FailedStream {
        FacadeResult<ThreadListing> listing = threadFeed.list();
        if (listing instanceof FacadeResult.Failed<ThreadListing> failed) {
            status.failed(NoticeDelivery.HOST_STREAM, failed.error());
            throw new FailedStream("host thread list: " + failed.error().kind());
        }
        store.saveCursor(NoticeDelivery.HOST_STREAM, ((FacadeResult.Ok<ThreadListing>) listing).value().cursor());
        delivery.sweep();
        return Duration.ZERO;
    }

    private Duration sweep() {
        delivery.sweep();
        return properties.getSweepInterval();
    }

    /** A stream answered with a failure (already reported in {@link NoticeStatus}). */
    private static final class FailedStream extends Exception {
        FailedStream(String message) {
            super(message, null, false, false);
        }
    }
}
