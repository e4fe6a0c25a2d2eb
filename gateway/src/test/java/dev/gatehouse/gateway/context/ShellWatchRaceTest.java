package dev.gatehouse.gateway.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.host.ThreadEvent;
import dev.gatehouse.facade.host.ThreadEventPage;
import dev.gatehouse.facade.host.ThreadFeed;
import dev.gatehouse.facade.host.ThreadListing;
import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.facts.ThreadShell;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The freshness rule under concurrency (docs/domain.md §1): a host whose every change is numbered and timed on one
 * injected clock, a watch running on its own thread (with a feed that trims its log and sometimes fails, so it also
 * relists and reconnects), a thread making changes and three threads looking shells up. Every lookup must reflect
 * every change made more than {@code max-staleness} before it began, whichever way the races went; no time is
 * measured, only the order of events on the injected clock.
 */
class ShellWatchRaceTest {

    /** On the injected clock: each change moves it on by one millisecond. */
    private static final Duration BOUND = Duration.ofMillis(5);
    private static final List<String> THREADS = List.of("t1", "t2", "t3", "t4");
    private static final int CHANGES = 2_000;

    @Test
    void noLookupIsOlderThanTheBoundWhateverTheInterleaving() throws Exception {
        VersionedHost host = new VersionedHost();
        HostWatchProperties properties = new HostWatchProperties();
        properties.setMaxStaleness(BOUND);
        ShellWatch watch = new ShellWatch(host, properties, host.clock::get, Clock.systemUTC(),
                new SimpleMeterRegistry());
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        AtomicBoolean changing = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        // Every third read answers only once the watch has applied a page after it: the race a seed must lose.
        ThreadShells shells = new ThreadShells(host.facade(() -> {
            long generation = watch.generation();
            while (reads.incrementAndGet() % 3 == 0 && changing.get() && watch.generation() == generation) {
                Thread.yield();
            }
        }), watch, meters);
        record Lookup(String threadId, long startedAt, long version) {
        }
        ConcurrentLinkedQueue<Lookup> lookups = new ConcurrentLinkedQueue<>();
        CountDownLatch ready = new CountDownLatch(3);
        List<Thread> lookers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int seed = i;
            lookers.add(new Thread(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                ready.countDown();
                while (changing.get()) {
                    String id = THREADS.get(random.nextInt(THREADS.size()));
                    long startedAt = host.clock.get();
                    ThreadShell shell = shells.shell(id);
                    lookups.add(new Lookup(id, startedAt, VersionedHost.version(shell)));
                    Thread.yield();
                }
            }, "looker-" + i));
        }
        lookers.forEach(Thread::start);
        watch.start();
        try {
            ready.await();
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < CHANGES; i++) {
                if (i % 1_000 == 500) {
                    // The watch's next poll waits while more changes are made than the feed keeps: it must list.
                    host.hold();
                    for (int j = 0; j < 200; j++) {
                        host.change(THREADS.get(random.nextInt(THREADS.size())));
                    }
                    host.release();
                }
                host.change(THREADS.get(random.nextInt(THREADS.size())));
                if (i % 25 == 0) {
                    awaitCaughtUp(watch, host);
                }
            }
        } finally {
            changing.set(false);
            for (Thread looker : lookers) {
                looker.join();
            }
        }
        // Quiet now: once the watch has caught up, a second lookup of each thread is answered from it.
        awaitCaughtUp(watch, host);
        while (!"watching".equals(watch.view().get("state"))) {
            Thread.yield();
        }
        for (String id : THREADS) {
            shells.shell(id);
            assertEquals(host.version(id), VersionedHost.version(shells.shell(id)));
        }
        watch.stop();

        int checked = 0;
        for (Lookup lookup : lookups) {
            long required = host.versionAt(lookup.threadId(), lookup.startedAt() - BOUND.toNanos());
            assertTrue(lookup.version() >= required, lookup + " misses version " + required
                    + " made more than the bound before it began");
            checked++;
        }
        assertTrue((Long) watch.view().get("relists") >= 3, "listed at start and after each burst: "
                + watch.view());
        double fromWatch = meters.get(ThreadShells.ANSWERS).tag("source", "watch").counter().count();
        double fromHost = meters.get(ThreadShells.ANSWERS).tag("source", "host").counter().count();
        assertTrue(checked > 0 && fromWatch > 0 && fromHost > 0,
                checked + " lookups, " + fromWatch + " from the watch, " + fromHost + " read");
    }

    private static void awaitCaughtUp(ShellWatch watch, VersionedHost host) {
        while (!watch.cursor().equals(Optional.of(host.head()))) {
            Thread.yield();
        }
    }

    /**
     * A linearizable host in memory: one lock orders changes, reads, lists and feed pages. A change moves the clock
     * on by a millisecond and gives the thread the next position as its version (its provider instance
     * {@code v<n>}). The feed keeps the latest 64 events (older cursors are gone) and fails every 97th poll.
     */
    static final class VersionedHost implements ThreadFeed {

        final AtomicLong clock = new AtomicLong(1_000_000_000L);
        private final Map<String, Long> versions = new HashMap<>();
        private final Map<String, List<long[]>> history = new HashMap<>();
        private final List<ThreadEvent> events = new ArrayList<>();
        private long position;
        private long polls;
        private volatile CountDownLatch held;

        VersionedHost() {
            THREADS.forEach(id -> {
                versions.put(id, 0L);
                history.put(id, new ArrayList<>(List.of(new long[] {0, 0})));
            });
        }

        synchronized void change(String threadId) {
            long at = clock.addAndGet(1_000_000);
            position++;
            versions.put(threadId, position);
            history.get(threadId).add(new long[] {at, position});
            events.add(new ThreadEvent("h:" + position, threadId, "provider_instance_changed", Optional.empty(),
                    Instant.EPOCH, Optional.of(state(threadId))));
            if (events.size() > 64) {
                events.remove(0);
            }
            notifyAll();
        }

        /** Polls wait (before taking the lock) until {@link #release}. */
        void hold() {
            held = new CountDownLatch(1);
        }

        void release() {
            held.countDown();
            held = null;
        }

        synchronized String head() {
            return "h:" + position;
        }

        synchronized long version(String threadId) {
            return versions.get(threadId);
        }

        /** The version the thread had at {@code time} on the clock. */
        synchronized long versionAt(String threadId, long time) {
            long version = 0;
            for (long[] change : history.get(threadId)) {
                if (change[0] <= time) {
                    version = change[1];
                }
            }
            return version;
        }

        static long version(ThreadShell shell) {
            return Long.parseLong(shell.providerInstanceId().orElseThrow().substring(1));
        }

        private ThreadState state(String threadId) {
            return new ThreadState(threadId, false, "full-access", "default", Optional.of("run"),
                    Optional.of("v" + versions.get(threadId)), Optional.empty());
        }

        /** The host's thread reads; {@code afterRead} runs after each read, before its answer is returned. */
        HostFacade facade(Runnable afterRead) {
            return (HostFacade) Proxy.newProxyInstance(HostFacade.class.getClassLoader(),
                    new Class<?>[] {HostFacade.class}, (proxy, method, args) -> {
                        if (!method.getName().equals("threadState")) {
                            throw new UnsupportedOperationException(method.getName());
                        }
                        FacadeResult<ThreadState> answer;
                        synchronized (this) {
                            answer = new FacadeResult.Ok<>(state((String) args[0]));
                        }
                        afterRead.run();
                        return answer;
                    });
        }

        @Override
        public synchronized FacadeResult<ThreadListing> list() {
            return new FacadeResult.Ok<>(new ThreadListing(THREADS.stream().map(this::state).toList(), head()));
        }

        @Override
        public FacadeResult<ThreadEventPage> events(Optional<String> after, long waitMillis) {
            CountDownLatch latch = held;
            if (latch != null) {
                try {
                    latch.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return page(after, waitMillis);
        }

        private synchronized FacadeResult<ThreadEventPage> page(Optional<String> after, long waitMillis) {
            if (++polls % 97 == 0) {
                return new FacadeResult.Failed<>(new ServiceError.Unavailable("the host failed"));
            }
            long from = Long.parseLong(after.orElseThrow().substring(2));
            long oldest = events.isEmpty() ? position + 1 : Long.parseLong(events.get(0).cursor().substring(2));
            if (from < oldest - 1) {
                return new FacadeResult.Failed<>(new ServiceError.Rejected("gone", ThreadFeed.CURSOR_EXPIRED));
            }
            if (position == from) {
                try {
                    wait(waitMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                oldest = events.isEmpty() ? position + 1 : Long.parseLong(events.get(0).cursor().substring(2));
                if (from < oldest - 1) {
                    return new FacadeResult.Failed<>(new ServiceError.Rejected("gone", ThreadFeed.CURSOR_EXPIRED));
                }
            }
            List<ThreadEvent> page = events.subList((int) (from + 1 - oldest), events.size()).stream().limit(100)
                    .toList();
            String cursor = page.isEmpty() ? "h:" + from : page.get(page.size() - 1).cursor();
            return new FacadeResult.Ok<>(new ThreadEventPage(page, cursor, !cursor.equals(head())));
        }
    }
}
