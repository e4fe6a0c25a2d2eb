package dev.gatehouse.gateway.audit.shipping;

import dev.gatehouse.gateway.audit.LogFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * How a {@link dev.gatehouse.gateway.audit.DecisionLogSink} that reads the decision log's own files follows them on
 * its one thread, the same for the shipper ({@link DecisionLogShipper}) and the index feed ({@link IndexFeed}): the
 * thread and its wake-ups (the writer reports a write or a rotation; the thread waits for that, for close, or for a
 * given time), the log's files in order with their first records' ids, and one look at them from the sink's cursor
 * ({@link #round}): a batch that never passes what the writer reported ({@link LogTail}) and has waited to fill, the
 * start of the file after a finished one, or a wait. The sink keeps its own cursor and decides what a batch becomes.
 *
 * <p>While a batch of the live file waits to fill, a write wakes the thread only once the live file may hold a full
 * batch (estimated from the size of the records already waiting): a busy gateway writes one record per call, and a
 * wake-up per write would read the waiting records again each time, costing the feed's thread CPU per call that
 * grows with the batch.
 */
final class LogFollower {

    /** Moves a sink's cursor to the start of the file after {@code done} ({@link #startOfNext}). */
    @FunctionalInterface
    interface NextFile {
        /** @return false when there is no next file yet */
        boolean next(Path done) throws IOException;
    }

    /** Takes one batch of a file: sends or writes it, and moves the sink's cursor past it once it was taken. */
    @FunctionalInterface
    interface Take {
        void take(Path file, LogTail.Chunk chunk) throws IOException;
    }

    /** Lists the log's files ({@link LogFiles#files}); tests rotate the log around a listing with their own. */
    @FunctionalInterface
    interface Listing {
        List<Path> files(Path live) throws IOException;
    }

    private final Path live;
    private final Thread thread;
    private final long idleNanos;
    private final IntSupplier maxRecords;
    private final Supplier<Duration> batchDelay;
    private final Listing listing;
    /** First record ids of rotated files; touched by the thread only. */
    private final Map<Path, String> firstIds = new HashMap<>();
    /** The live file's first record id as read just before the last listing ({@link #files}); thread only. */
    private String liveFirstId;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Guarded by {@link #lock}: something was written or rotated since the thread last looked. */
    private boolean news;
    private volatile LogTail.Live reported = new LogTail.Live(null, 0);
    private volatile boolean closed;

    /**
     * While a batch of the live file waits to fill, the live file's size from which it may hold a full batch: a
     * report below it does not wake the thread. 0 otherwise: every report wakes it.
     */
    private volatile long wakeAt;

    /** Touched by the thread only: since when a batch of the live file waits to fill. */
    private long partialSince;
    private boolean partial;

    /**
     * @param live       the decision log's live file, absolute
     * @param name       the thread's name
     * @param body       what the thread runs; it loops until {@link #closed()}
     * @param idleNanos  how long an idle look waits at most before it looks again without being told of a write
     * @param maxRecords records per batch, at most (the sink's {@code batch-max-records})
     * @param batchDelay how long a batch of the live file waits to fill at most (the sink's {@code batch-delay})
     */
    LogFollower(Path live, String name, Runnable body, long idleNanos, IntSupplier maxRecords,
            Supplier<Duration> batchDelay) {
        this(live, name, body, idleNanos, maxRecords, batchDelay, LogFiles::files);
    }

    /** The same, listing the files with {@code listing}. */
    LogFollower(Path live, String name, Runnable body, long idleNanos, IntSupplier maxRecords,
            Supplier<Duration> batchDelay, Listing listing) {
        this.listing = listing;
        this.live = live;
        this.idleNanos = idleNanos;
        this.maxRecords = maxRecords;
        this.batchDelay = batchDelay;
        this.thread = new Thread(body, name);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Tells the thread to stop and waits for it at most {@code join}. */
    void close(Duration join) {
        closed = true;
        signal();
        try {
            thread.join(join.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean closed() {
        return closed;
    }

    /** The writer's report: the live file whose first record is {@code firstId} holds whole records up to here. */
    void written(String firstId, long liveBytes) {
        reported = new LogTail.Live(firstId, liveBytes);
        if (liveBytes >= wakeAt) {
            signal();
        }
    }

    /** Wakes the thread: something was written or rotated. */
    void signal() {
        lock.lock();
        try {
            news = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until told of news, closed, or {@code nanos} passed. */
    void await(long nanos) throws InterruptedException {
        lock.lock();
        try {
            long left = nanos;
            while (!news && !closed && left > 0) {
                left = changed.awaitNanos(left);
            }
            news = false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits while a batch of the live file fills: until a report reaches {@code fullAt} bytes, a rotation, close, or
     * {@code nanos} passed. Reports from before the wait do not end it (what they wrote is read after it); a rotation
     * reported just before it may not either, which only delays that batch by at most {@code nanos}.
     */
    private void awaitFill(long nanos, long fullAt) throws InterruptedException {
        lock.lock();
        try {
            news = false;
            wakeAt = fullAt;
            // A report that reached fullAt before wakeAt was set may have had its news cleared above.
            long left = reported.bytes() >= fullAt ? 0 : nanos;
            while (!news && !closed && left > 0) {
                left = changed.awaitNanos(left);
            }
            news = false;
        } finally {
            wakeAt = 0;
            lock.unlock();
        }
    }

    /**
     * The log's files, oldest first, the live one last; forgets the first ids of files no longer there. The live
     * file's first record is read just before the listing ({@link #firstId} answers it for the live file): a rotation
     * in between shows in the listing as a rotated file, whose first record never changes, so no file listed is paired
     * with the id of a file after it. Read after the listing, the live file could already be a later one, and a
     * cursor moved to it would skip every file between: their records never indexed or shipped, and retention would
     * take the skipped files for shipped.
     */
    List<Path> files() throws IOException {
        liveFirstId = LogFiles.firstId(live).orElse(null);
        List<Path> files = listing.files(live);
        firstIds.keySet().retainAll(files);
        return files;
    }

    /**
     * The first record's id of a file of the last {@link #files} listing: a rotated file's is read once and
     * remembered (it never changes), the live file's is the one read just before that listing (it may since have been
     * rotated; then its file is also listed under its rotated name, earlier, with the same id). Reads at most one
     * line, so a writer waiting for a lock the caller holds waits no longer.
     */
    String firstId(Path file) {
        if (!LogFiles.isRotatedName(live, file.getFileName().toString())) {
            return liveFirstId;
        }
        return firstIds.computeIfAbsent(file, f -> LogFiles.firstId(f).orElse(null));
    }

    /**
     * One look at the files from the sink's cursor {@code at}, in {@code file} (empty when the sink could not locate
     * it): hands the batch there to {@code take}, unless it is a batch of the live file still waiting to fill; at
     * the end of what the writer reported tells {@code caughtUp} and, at the end of a finished file, moves on with
     * {@code next}; otherwise waits, for news at the most. A file whose first record is no longer the cursor's was
     * renamed under the sink: the next look locates it again.
     */
    void round(Optional<Path> file, ShipCursor at, Runnable caughtUp, NextFile next, Take take)
            throws IOException, InterruptedException {
        if (file.isEmpty()) {
            await(idleNanos);
            return;
        }
        boolean rotatedName = LogFiles.isRotatedName(live, file.get().getFileName().toString());
        LogTail.Chunk chunk = LogTail.read(file.get(), rotatedName, at.offset(), maxRecords.getAsInt(), () -> reported);
        if (at.firstId() != null && !at.firstId().equals(chunk.firstId())) {
            return;
        }
        if (chunk.lines().isEmpty()) {
            partial = false;
            caughtUp.run();
            if (!(chunk.complete() && next.next(file.get()))) {
                await(idleNanos);
            }
            return;
        }
        take(file.get(), at, chunk, take);
    }

    /**
     * Hands {@code chunk}, records of {@code file} from the sink's cursor {@code at} on (read from the file or handed
     * by the writer), to {@code take}, unless it is a batch of the live file still waiting to fill: then waits.
     */
    void take(Path file, ShipCursor at, LogTail.Chunk chunk, Take take) throws IOException, InterruptedException {
        long fill = fillWait(chunk);
        if (fill > 0) {
            long waiting = chunk.to() - at.offset();
            awaitFill(fill, at.offset() + (long) Math.ceil((double) waiting / chunk.lines().size()
                    * maxRecords.getAsInt()));
            return;
        }
        take.take(file, chunk);
    }

    /** What the writer last reported of the live file. */
    LogTail.Live reported() {
        return reported;
    }

    /**
     * A cursor at the start of the file after {@code done} (a rotated file); empty when there is none yet or it has
     * no record. Its id is the file's as {@link #files} pairs them, so it is the file right after {@code done} even when
     * the log rotates meanwhile.
     */
    Optional<ShipCursor> startOfNext(Path done) throws IOException {
        List<Path> files = files();
        int at = files.indexOf(done);
        if (at < 0 || at + 1 >= files.size()) {
            return Optional.empty();
        }
        Path following = files.get(at + 1);
        return Optional.ofNullable(firstId(following))
                .map(id -> new ShipCursor(following.getFileName().toString(), id, 0));
    }

    /**
     * How much longer, in nanoseconds, a batch waits to fill: a batch of the live file smaller than
     * {@code batch-max-records} waits at most {@code batch-delay} from the first time it was seen; 0 when it goes now.
     */
    private long fillWait(LogTail.Chunk chunk) {
        if (!chunk.complete() && chunk.lines().size() < maxRecords.getAsInt()) {
            long now = System.nanoTime();
            if (!partial) {
                partial = true;
                partialSince = now;
            }
            long left = batchDelay.get().toNanos() - (now - partialSince);
            if (left > 0) {
                return left;
            }
        }
        partial = false;
        return 0;
    }
}
