package dev.gatehouse.gateway.context;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.ThreadCursor;
import dev.gatehouse.facade.host.ThreadEvent;
import dev.gatehouse.facade.host.ThreadEventPage;
import dev.gatehouse.facade.host.ThreadFeed;
import dev.gatehouse.facade.host.ThreadListing;
import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.gateway.telemetry.CumulativeBuckets;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import io.micronaut.context.annotation.Context;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's watch of the host's thread shells: the informer pattern over the host's thread events feed
 * ({@link ThreadFeed}; schemas/services/README.md, "Thread events"). It lists the threads with the feed's cursor,
 * then long-polls the events after its cursor and applies each event's shell to the threads it keeps; it lists again
 * when the host says the cursor is gone (410 {@code cursor_expired}: the feed was trimmed, or the host's history
 * started over) or when a page does not continue exactly where the watch stood (a gap). It keeps only threads the PIP
 * has looked up ({@link #offer}), at most {@code gatehouse.host.max-threads}, the least used leaving first.
 *
 * <h2>The freshness rule (docs/domain.md §1)</h2>
 * {@link #shell} answers only while the watch is connected and the latest poll that brought it to the feed's end was
 * sent at most {@code max-staleness} ago. The host answers a poll after receiving it, with every event it had made
 * by then, so what the watch answers is the host's state at a moment no more than {@code max-staleness} before the
 * lookup. Each poll asks the host to wait at most a quarter of the bound for an event; the empty page that ends an
 * idle wait is the host's heartbeat, so a connected watch is heard from about every quarter bound. Why a quarter:
 * just before a poll is answered, the watch's news is as old as the send of the poll before it, two waits and two
 * trips ago; with waits of half the bound that is the whole bound with no slack, and every trip's delay (a host or
 * a watch thread waiting for a core) sends lookups to the host. A quarter leaves half the bound for the two
 * trips. A page cut at the feed's
 * page size ({@code more}) does not count: the watch has not reached the end. A failed poll disconnects at once; the
 * watch then resumes from its cursor after a pause (100 ms doubling to 5 s), or lists again when the cursor is gone.
 *
 * <h2>Seeding from fresh reads</h2>
 * A shell the PIP read from the host is kept only when the watch applied no page and took no list while it was read
 * ({@link #generation}): by the host's contract a read reflects every event the feed delivered before it began, and
 * every later event is applied on top of it; a read that raced with a page is not kept (it is still the answer of
 * its own call). Every write of the kept shells (a page, a list, a seed) takes one lock, so a seed never lands after
 * a newer event; lookups read without it.
 *
 * <p>Created with the application context, so the watch is under way before the first call. Meters: {@value #LAG}
 * (from the host's {@code at} of each event to its application here: on one machine, the time from a host change to
 * the gateway seeing it) and {@value #RELISTS} (tag {@code reason}: {@code start}, {@code cursor_gone},
 * {@code gap}).
 */
@Context
public class ShellWatch {

    /** Timer: from a change on the host (its {@code at}) to the watch applying it. */
    public static final String LAG = "gatehouse.host.watch.lag";

    /** Counter: lists taken, by reason. */
    public static final String RELISTS = "gatehouse.host.watch.relists";

    private static final Logger LOG = LoggerFactory.getLogger(ShellWatch.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    /** Upper bounds of the lag timer's buckets, µs. */
    private static final long[] LAG_BUCKETS_MICROS = {50, 100, 200, 300, 500, 700, 1_000, 1_500, 2_000, 3_000, 5_000,
        7_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 5_000_000};

    private final ThreadFeed feed;
    private final LongSupplier nanos;
    private final Clock wall;
    private final long maxStalenessNanos;
    private final long waitMillis;
    private final Cache<String, ThreadShell> shells;
    private final Object lock = new Object();
    private final MeterRegistry meters;
    private final Timer lag;
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong relists = new AtomicLong();
    private Thread loop;

    /** Changes each time a page is applied or a list taken; written under {@link #lock}. */
    private volatile long generation;
    /** Where the watch stands in the feed; null: list next. Written by the watching thread only. */
    private volatile String cursor;
    private volatile String relistReason = "start";
    private volatile boolean connected;
    private volatile long heardAtNanos;
    private volatile Duration backoff = Duration.ZERO;
    private volatile Optional<ServiceError> fault = Optional.empty();
    private volatile boolean running = true;

    @Inject
    public ShellWatch(ThreadFeed feed, HostWatchProperties properties, MeterRegistry meters) {
        this(feed, properties, System::nanoTime, Clock.systemUTC(), meters);
    }

    /**
     * For tests: {@code nanos} (monotonic) decides how recently the host was heard from, {@code wall} the lag meter;
     * nothing runs until {@link #step} is called or {@link #start}.
     */
    ShellWatch(ThreadFeed feed, HostWatchProperties properties, LongSupplier nanos, Clock wall,
            MeterRegistry meters) {
        this.feed = feed;
        this.nanos = nanos;
        this.wall = wall;
        this.meters = meters;
        this.maxStalenessNanos = properties.getMaxStaleness().toNanos();
        this.waitMillis = Math.max(1, properties.getMaxStaleness().toMillis() / 4);
        // Evictions run on the caller's thread, not a pool: the bound holds as soon as an entry is added.
        this.shells = Caffeine.newBuilder().maximumSize(properties.getMaxThreads()).executor(Runnable::run).build();
        this.lag = CumulativeBuckets.on(Timer.builder(LAG)
                .description("from a thread change on the host to the shell watch applying it"), LAG_BUCKETS_MICROS)
                .register(meters);
    }

    /** Whether the watch runs at all ({@code max-staleness} above 0). */
    public boolean enabled() {
        return maxStalenessNanos > 0;
    }

    /** Starts the watching thread (not when the watch is off). */
    @PostConstruct
    synchronized void start() {
        if (enabled() && loop == null) {
            loop = new Thread(this::watch, "gatehouse-host-watch");
            loop.setDaemon(true);
            loop.start();
        }
    }

    @PreDestroy
    synchronized void stop() {
        running = false;
        if (loop != null) {
            loop.interrupt();
            try {
                loop.join(2 * waitMillis + 1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The kept shell of {@code threadId} when the freshness rule allows answering from the watch; empty otherwise
     * (off, disconnected, not heard from within {@code max-staleness}, or the thread not kept).
     */
    public Optional<ThreadShell> shell(String threadId) {
        if (!enabled() || !connected || nanos.getAsLong() - heardAtNanos > maxStalenessNanos) {
            return Optional.empty();
        }
        return Optional.ofNullable(shells.getIfPresent(threadId));
    }

    /** What to pass to {@link #offer} for a read that begins now. */
    public long generation() {
        return generation;
    }

    /**
     * A shell read from the host for the PIP: a found one is kept when the watch changed nothing since
     * {@code generationBefore} (taken before the read began); a thread the host says does not exist is dropped.
     */
    public void offer(String threadId, ThreadShell read, long generationBefore) {
        if (!enabled()) {
            return;
        }
        synchronized (lock) {
            if (read.lookup() == ThreadShell.Lookup.NOT_FOUND) {
                shells.invalidate(threadId);
            } else if (read.lookup() == ThreadShell.Lookup.FOUND && generation == generationBefore) {
                shells.put(threadId, read);
            }
        }
    }

    /** One list or one poll of the feed; returns how long to pause before the next (zero: at once). */
    Duration step() {
        String from = cursor;
        return from == null ? list() : poll(from);
    }

    private void watch() {
        while (running) {
            Duration pause;
            try {
                pause = step();
            } catch (RuntimeException e) {
                LOG.error("host shell watch failed; it goes on after a pause", e);
                connected = false;
                pause = MAX_BACKOFF;
            }
            if (!pause.isZero()) {
                try {
                    Thread.sleep(pause.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private Duration list() {
        long sent = nanos.getAsLong();
        FacadeResult<ThreadListing> result = feed.list();
        if (result instanceof FacadeResult.Failed<ThreadListing> failed) {
            return failed(failed.error());
        }
        ThreadListing listing = ((FacadeResult.Ok<ThreadListing>) result).value();
        if (ThreadCursor.parse(listing.cursor()).isEmpty()) {
            return failed(new ServiceError.Incompatible("the host's thread list carries a cursor the watch cannot"
                    + " read"));
        }
        Map<String, ThreadState> listed = new HashMap<>();
        listing.threads().forEach(state -> listed.put(state.threadId(), state));
        synchronized (lock) {
            generation++;
            for (String threadId : Map.copyOf(shells.asMap()).keySet()) {
                ThreadState state = listed.get(threadId);
                if (state == null) {
                    shells.invalidate(threadId);
                } else {
                    shells.put(threadId, ThreadShells.found(state));
                }
            }
            cursor = listing.cursor();
        }
        relists.incrementAndGet();
        Counter.builder(RELISTS).description("lists of the host's threads taken by the shell watch")
                .tag("reason", relistReason).register(meters).increment();
        heard(sent);
        return Duration.ZERO;
    }

    private Duration poll(String from) {
        long sent = nanos.getAsLong();
        FacadeResult<ThreadEventPage> result = feed.events(Optional.of(from), waitMillis);
        if (result instanceof FacadeResult.Failed<ThreadEventPage> failed) {
            if (ThreadFeed.cursorGone(failed.error())) {
                return relist("cursor_gone", "the host no longer holds events after " + from);
            }
            return failed(failed.error());
        }
        ThreadEventPage page = ((FacadeResult.Ok<ThreadEventPage>) result).value();
        if (!continues(from, page)) {
            return relist("gap", "a page of the host's feed does not continue from " + from);
        }
        synchronized (lock) {
            if (!page.events().isEmpty()) {
                generation++;
            }
            for (ThreadEvent event : page.events()) {
                shells.asMap().computeIfPresent(event.threadId(),
                        (id, kept) -> event.thread().map(ThreadShells::found).orElse(null));
            }
            cursor = page.cursor();
        }
        for (ThreadEvent event : page.events()) {
            lag.record(Duration.between(event.at(), wall.instant()).toNanos(), TimeUnit.NANOSECONDS);
        }
        applied.addAndGet(page.events().size());
        if (!page.more()) {
            heard(sent);
        }
        return Duration.ZERO;
    }

    /** True when every event follows the one before it, the first follows {@code from}, and the cursor the last. */
    private static boolean continues(String from, ThreadEventPage page) {
        Optional<ThreadCursor> at = ThreadCursor.parse(from);
        if (at.isEmpty()) {
            return false;
        }
        ThreadCursor previous = at.get();
        for (ThreadEvent event : page.events()) {
            Optional<ThreadCursor> next = ThreadCursor.parse(event.cursor());
            if (next.isEmpty() || !previous.isFollowedBy(next.get())) {
                return false;
            }
            previous = next.get();
        }
        return ThreadCursor.parse(page.cursor()).filter(previous::equals).isPresent();
    }

    private void heard(long sentNanos) {
        heardAtNanos = sentNanos;
        connected = true;
        if (fault.isPresent()) {
            LOG.info("host shell watch connected again at {}", cursor);
        }
        fault = Optional.empty();
        backoff = Duration.ZERO;
    }

    private Duration relist(String reason, String why) {
        connected = false;
        LOG.warn("host shell watch lists again: {}", why);
        relistReason = reason;
        cursor = null;
        return Duration.ZERO;
    }

    private Duration failed(ServiceError error) {
        connected = false;
        if (fault.isEmpty()) {
            LOG.warn("host shell watch disconnected ({}: {}); shells are read from the host on each call until it"
                    + " is back", error.kind(), error.message());
        }
        fault = Optional.of(error);
        Duration next = backoff.isZero() ? FIRST_BACKOFF : backoff.multipliedBy(2);
        backoff = next.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : next;
        return backoff;
    }

    /**
     * The watch as {@code /health} shows it: {@code state} ({@code off}, {@code watching}: answering from the watch,
     * {@code stale}: connected but not heard from within {@code max-staleness}, {@code disconnected}), and, when on,
     * {@code cursor}, {@code heardMillisAgo}, {@code threads} kept, {@code eventsApplied}, {@code relists} and the
     * last failure ({@code fault: {kind, detail}}) while disconnected.
     */
    public Map<String, Object> view() {
        Map<String, Object> view = new LinkedHashMap<>();
        if (!enabled()) {
            view.put("state", "off");
            return view;
        }
        boolean up = connected;
        long ago = nanos.getAsLong() - heardAtNanos;
        view.put("state", !up ? "disconnected" : ago > maxStalenessNanos ? "stale" : "watching");
        view.put("maxStalenessMillis", TimeUnit.NANOSECONDS.toMillis(maxStalenessNanos));
        Optional.ofNullable(cursor).ifPresent(c -> view.put("cursor", c));
        if (up) {
            view.put("heardMillisAgo", TimeUnit.NANOSECONDS.toMillis(ago));
        }
        view.put("threads", shells.estimatedSize());
        view.put("eventsApplied", applied.get());
        view.put("relists", relists.get());
        fault.ifPresent(error -> view.put("fault", Map.of("kind", error.kind(), "detail", error.message())));
        return view;
    }

    /** The feed position the watch stands at, empty while it must list (tests wait on it). */
    Optional<String> cursor() {
        return Optional.ofNullable(cursor);
    }
}
