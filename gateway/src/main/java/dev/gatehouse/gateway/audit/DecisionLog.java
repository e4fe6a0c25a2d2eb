package dev.gatehouse.gateway.audit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decision log: one JSON line per decision (schemas/decision-log-record.json), appended to
 * {@code gatehouse.audit.path}. The PEP calls {@link #record} after the PDP answered and before the handler runs,
 * for tools/list and tools/call, allow, deny and fault alike, and denies unless it returns
 * {@link LogResult.Written}.
 *
 * <h2>Group commit</h2>
 * The caller serialises its record (on its own thread), puts the line on a bounded queue and waits. One writer
 * thread takes everything queued, copies it into one buffer and hands it to the OS with one channel write (a batch
 * larger than the 1 MiB buffer, or one that crosses a rotation, takes one write per piece), optionally forces it
 * to the device ({@code gatehouse.audit.fsync}), and then completes every waiting call of the batch. So
 * {@link LogResult.Written} still means the whole line is in the operating system's hands (on the device with
 * fsync), and concurrent calls share one write instead of queueing on a lock.
 *
 * <h2>When a record is not written</h2>
 * {@link #record} never blocks longer than {@code gatehouse.audit.write-timeout} and returns
 * {@link LogResult.NotWritten} with one of these details:
 * <ul>
 * <li>{@code decision log queue full}: {@code queue-capacity} records are already waiting; returned at once;</li>
 * <li>{@code ... not written within <timeout> ...}: the writer did not confirm in time. If the record was still
 *     queued it is withdrawn and never written; if the writer had already taken it, the line may still appear in
 *     the log (a logged decision is therefore not proof that its call ran);</li>
 * <li>{@code decision log <file> cannot be written: <error>}: opening or writing failed. Lines of the failed write
 *     are cut from the file again, and the next batch reopens the file;</li>
 * <li>{@code record <id> cannot be serialised: ...} and {@code decision log <file> is closed}.</li>
 * </ul>
 *
 * <h2>What a record holds</h2>
 * {@link DecisionRecordJson} writes the record; every string or member name longer than
 * {@code max-argument-bytes} anywhere in it (and a long {@code unicode} fact) is written as its length and SHA-256
 * ({@link RecordRedactor}), and a line longer than {@code max-record-bytes} is written reduced. The values so
 * replaced are appended to the values file beside the log file before the line, each once per file
 * ({@link StoredValue}), so a replay can put them back; the log file and its values file count together against
 * {@code max-file-bytes}.
 *
 * <h2>Files</h2>
 * Before a line that would take the live file past {@code max-file-bytes}, and before the first line written once
 * the live file's first line is {@code max-file-age} old, the live file and its values file are renamed to
 * {@code <stem>-<yyyyMMdd'T'HHmmss'Z'>-<nnnn><ext>} beside it (e.g. {@code decisions-20261201T093000Z-0001.jsonl})
 * and a fresh one started ({@link LogFiles}). Which rotated files are deleted, and when the gateway says the
 * budget costs records, is {@link LogRetention}'s: only files past {@code retention} or shipped go, unless more
 * than {@code max-files} are kept, and then the newest go, loudly. Rotation happens between lines, so every file
 * holds whole lines; lexical order of the rotated names is time order ({@link #files()}). A partial last line left
 * by a crash is cut when the file is opened. One gateway process per log file.
 *
 * <p>The constructor never throws on I/O: when the file cannot be opened the gateway starts, denies every call, and
 * each batch tries to open it again. {@link #close} (at shutdown) writes everything queued before it returns.
 *
 * <p>Each {@link DecisionLogSink} bean (e.g. the shipper to an OPA-compatible decision-log service, the decision
 * index's feed) is told, on the writer thread, which records each write appended (their lines as written and what
 * the decision index lists of each, read from the tree the line was written from, so the feed need not read the
 * file back), how far the live file holds whole written records, and when it was rotated; a sink never blocks and
 * its failures never reach a call.
 */
@Singleton
public class DecisionLog {

    private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);
    private static final int BUFFER_BYTES = 1 << 20;

    private final Path file;
    private final int capacity;
    private final Duration writeTimeout;
    private final int maxValueBytes;
    private final int maxRecordBytes;
    private final RotatingLogFile log;
    private final LogRetention retention;
    private final List<DecisionLogSink> sinks;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private boolean closed;

    private final Thread writer;
    /** Touched by the writer thread only: the lines and the values of the piece being gathered. */
    private ByteBuffer buffer;
    private final ByteArrayOutputStream values = new ByteArrayOutputStream();
    private final Set<String> valueKeys = new HashSet<>();

    /** Opens (creating if needed) the log file; a failure is logged and retried on the first record. */
    public DecisionLog(DecisionLogConfiguration configuration) {
        this(configuration, Clock.systemUTC(), UnaryOperator.identity(), List.of(), new SimpleMeterRegistry());
    }

    /** The same, telling {@code sinks} about the files and counting evicted records in {@code meters}. */
    @Inject
    public DecisionLog(DecisionLogConfiguration configuration, List<DecisionLogSink> sinks, MeterRegistry meters) {
        this(configuration, Clock.systemUTC(), UnaryOperator.identity(), sinks, meters);
    }

    /**
     * For tests: {@code clock} decides file age, retention and rotated names; {@code wrap} sees every write to the
     * live file and its values file.
     */
    DecisionLog(DecisionLogConfiguration configuration, Clock clock, UnaryOperator<WritableByteChannel> wrap) {
        this(configuration, clock, wrap, List.of(), new SimpleMeterRegistry());
    }

    DecisionLog(DecisionLogConfiguration configuration, Clock clock, UnaryOperator<WritableByteChannel> wrap,
            List<DecisionLogSink> sinks, MeterRegistry meters) {
        this.sinks = List.copyOf(sinks);
        this.file = configuration.file();
        this.capacity = configuration.getQueueCapacity();
        this.writeTimeout = configuration.getWriteTimeout();
        this.maxValueBytes = configuration.getMaxArgumentBytes();
        this.maxRecordBytes = configuration.getMaxRecordBytes();
        this.log = new RotatingLogFile(file, configuration.getMaxFileBytes(), configuration.getMaxFileAge(),
                configuration.isFsync(), clock, wrap);
        this.retention = new LogRetention(file, configuration.getRetention(), configuration.getMaxFiles(), clock,
                sinks, meters);
        try {
            log.ensureOpen();
            tellWritten();
        } catch (IOException e) {
            LOG.error("Decision log {} cannot be opened; every call is denied until it can: {}", file, e.toString());
        }
        retention.apply();
        this.writer = new Thread(this::drain, "gatehouse-decision-log");
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Writes one record as one line and returns once it is written, or once it is clear it will not be.
     *
     * @return {@link LogResult.Written} when the whole line (and every value it stands in for) was handed to the OS
     *         (forced to the device with fsync), or {@link LogResult.NotWritten} with the reason (see the class
     *         comment); the PEP then denies
     */
    public LogResult record(DecisionRecord record) {
        RecordLine line;
        try {
            line = DecisionRecordJson.encode(record, maxValueBytes, maxRecordBytes);
        } catch (RuntimeException | StackOverflowError e) { // e.g. arguments nested too deep to serialise
            return new LogResult.NotWritten("record " + record.decisionId() + " cannot be serialised: " + e);
        }
        Pending pending = new Pending(line, record.decisionId().toString());
        lock.lock();
        try {
            if (closed) {
                return new LogResult.NotWritten("decision log " + file + " is closed");
            }
            if (queue.size() >= capacity) {
                return new LogResult.NotWritten("decision log queue full");
            }
            queue.addLast(pending);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
        try {
            return pending.result.get(writeTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (withdraw(pending)) {
                return new LogResult.NotWritten("decision log record not written within " + writeTimeout
                        + " (withdrawn from the queue)");
            }
            LogResult late = pending.result.getNow(null); // the writer finished it just now
            return late != null ? late : new LogResult.NotWritten("decision log record not written within "
                    + writeTimeout + " (the line may still be written)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            withdraw(pending);
            return new LogResult.NotWritten("interrupted while waiting for the decision log");
        } catch (ExecutionException e) {
            return new LogResult.NotWritten("decision log " + file + " cannot be written: " + e.getCause());
        }
    }

    /** The live file records go to. */
    public Path file() {
        return file;
    }

    /**
     * Every log file that exists, oldest first: the rotated files in name (= time) order, then the live file.
     * Reading them in this order gives every written record once, in the order written. Each one's values are in
     * {@link LogFiles#valuesFile}.
     */
    public List<Path> files() throws IOException {
        return LogFiles.files(file);
    }

    /**
     * Whether the space budget holds every record that must be kept (see {@link LogRetention}); reads no file, so
     * {@code /health} can ask at any time.
     */
    public RetentionStatus retention() {
        return retention.status();
    }

    /**
     * Stops taking records, writes everything already queued and closes the file. Waits for the writer at most
     * twice the write timeout (a writer stuck in the OS is left behind). Later records are {@code NotWritten}.
     */
    @PreDestroy
    public void close() {
        lock.lock();
        try {
            closed = true;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
        if (Thread.currentThread() == writer) {
            return;
        }
        try {
            writer.join(Math.max(1, writeTimeout.multipliedBy(2).toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            LOG.warn("Decision log {} writer did not finish within {}", file, writeTimeout.multipliedBy(2));
        }
    }

    /** Whether {@link #close} has begun. */
    boolean closing() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** Records waiting for the writer (not yet taken into a batch). */
    int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private boolean withdraw(Pending pending) {
        lock.lock();
        try {
            return queue.remove(pending);
        } finally {
            lock.unlock();
        }
    }

    /** The writer thread: takes whatever is queued, writes it as one batch, until closed and drained. */
    private void drain() {
        List<Pending> batch = new ArrayList<>();
        while (true) {
            lock.lock();
            try {
                while (queue.isEmpty() && !closed) {
                    notEmpty.awaitUninterruptibly();
                }
                if (queue.isEmpty()) {
                    break;
                }
                batch.addAll(queue);
                queue.clear();
            } finally {
                lock.unlock();
            }
            try {
                write(batch);
            } catch (RuntimeException | Error e) {
                LOG.error("Decision log {} writer failed on a batch; its calls are denied", file, e);
                fail(batch, 0, "decision log " + file + " writer failed: " + e);
            }
            batch.clear();
        }
        log.close();
    }

    /**
     * Writes a batch in as few channel writes as the buffer and rotation allow, each piece's new values first,
     * completing each piece's records after its write; after a failure the rest of the batch fails with it.
     */
    private void write(List<Pending> batch) {
        try {
            log.ensureOpen();
            if (log.tooOld()) {
                rotate();
            }
        } catch (IOException e) {
            fail(batch, 0, failure(e));
            return;
        }
        if (buffer == null) {
            buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
        }
        int from = 0;
        for (int i = 0; i < batch.size(); i++) {
            byte[] line = batch.get(i).line.line();
            List<StoredValue> fresh = fresh(batch.get(i));
            List<byte[]> entries = entries(fresh);
            boolean fitsFile = log.fits(buffer.position() + values.size(), line.length + bytes(entries));
            if (!fitsFile || line.length > buffer.remaining()) {
                try {
                    flush(batch, from, i);
                    from = i;
                    if (!fitsFile) {
                        rotate();
                        fresh = fresh(batch.get(i));
                        entries = entries(fresh);
                    }
                    if (line.length > buffer.capacity()) { // one oversized line goes alone
                        add(fresh, entries);
                        append(ByteBuffer.wrap(line), batch.subList(i, i + 1));
                        complete(batch, i, i + 1);
                        from = i + 1;
                        continue;
                    }
                } catch (IOException e) {
                    fail(batch, from, failure(e));
                    return;
                }
            }
            add(fresh, entries);
            buffer.put(line);
        }
        try {
            flush(batch, from, batch.size());
        } catch (IOException e) {
            fail(batch, from, failure(e));
        }
    }

    /** The values of {@code pending} neither in the live values file nor gathered for this piece. */
    private List<StoredValue> fresh(Pending pending) {
        List<StoredValue> fresh = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (StoredValue value : pending.line.values()) {
            if (!log.hasValue(value.key()) && !valueKeys.contains(value.key()) && seen.add(value.key())) {
                fresh.add(value);
            }
        }
        return fresh;
    }

    private static long bytes(List<byte[]> entries) {
        long bytes = 0;
        for (byte[] entry : entries) {
            bytes += entry.length;
        }
        return bytes;
    }

    private void add(List<StoredValue> fresh, List<byte[]> entries) {
        for (int i = 0; i < fresh.size(); i++) {
            values.writeBytes(entries.get(i));
            valueKeys.add(fresh.get(i).key());
        }
    }

    private static List<byte[]> entries(List<StoredValue> fresh) {
        return fresh.stream().map(StoredValue::entry).toList();
    }

    /** Writes the gathered piece of {@code batch[from, to)} (values, then lines) and completes it. */
    private void flush(List<Pending> batch, int from, int to) throws IOException {
        if (buffer.position() == 0 && values.size() == 0) {
            return;
        }
        buffer.flip();
        try {
            append(buffer, batch.subList(from, to));
        } finally {
            buffer.clear();
        }
        complete(batch, from, to);
    }

    /**
     * Appends the gathered values and {@code lines}, the lines of {@code piece}'s records, and tells the sinks what it
     * appended and how far the live file is written.
     */
    private void append(ByteBuffer lines, List<Pending> piece) throws IOException {
        String firstLineId = piece.get(0).decisionId;
        int bytes = lines.remaining();
        try {
            if (log.empty()) { // before a fresh file's first line, so no sink reads it as whole before it is
                tell(firstLineId, 0);
            }
            log.write(ByteBuffer.wrap(values.toByteArray()), valueKeys, lines, firstLineId);
        } finally {
            values.reset();
            valueKeys.clear();
        }
        tellAppended(log.size() - bytes, piece);
        tellWritten();
    }

    private void tellAppended(long from, List<Pending> piece) {
        if (sinks.isEmpty()) {
            return;
        }
        List<DecisionLogSink.Appended> records = new ArrayList<>(piece.size());
        for (Pending pending : piece) {
            records.add(new DecisionLogSink.Appended(pending.line.line(), pending.line.listing()));
        }
        List<DecisionLogSink.Appended> appended = Collections.unmodifiableList(records);
        for (DecisionLogSink sink : sinks) {
            try {
                sink.appended(log.firstId(), from, appended);
            } catch (RuntimeException e) {
                LOG.warn("decision log sink {} failed on appended records: {}", sink.getClass().getSimpleName(),
                        e.toString());
            }
        }
    }

    /** Rotates the live file, tells the sinks and applies the retention rules. */
    private void rotate() throws IOException {
        String firstId = log.firstId();
        Optional<Path> rotated = log.rotate();
        if (rotated.isPresent()) {
            for (DecisionLogSink sink : sinks) {
                try {
                    sink.rotated(firstId, rotated.get());
                } catch (RuntimeException e) {
                    LOG.warn("decision log sink {} failed on a rotation: {}", sink.getClass().getSimpleName(),
                            e.toString());
                }
            }
            tellWritten();
            retention.apply();
        }
    }

    private void tellWritten() {
        tell(log.firstId(), log.size());
    }

    private void tell(String firstId, long bytes) {
        for (DecisionLogSink sink : sinks) {
            try {
                sink.written(firstId, bytes);
            } catch (RuntimeException e) {
                LOG.warn("decision log sink {} failed: {}", sink.getClass().getSimpleName(), e.toString());
            }
        }
    }

    private static void complete(List<Pending> batch, int from, int to) {
        LogResult written = new LogResult.Written();
        for (int i = from; i < to; i++) {
            batch.get(i).result.complete(written);
        }
    }

    private static void fail(List<Pending> batch, int from, String detail) {
        LogResult notWritten = new LogResult.NotWritten(detail);
        for (int i = from; i < batch.size(); i++) {
            batch.get(i).result.complete(notWritten);
        }
    }

    private String failure(IOException e) {
        LOG.error("Decision log {} write failed; the calls are denied: {}", file, e.toString());
        return "decision log " + file + " cannot be written: " + e;
    }

    /** One queued record and the call waiting for it. */
    private static final class Pending {

        final RecordLine line;
        final String decisionId;
        final CompletableFuture<LogResult> result = new CompletableFuture<>();

        Pending(RecordLine line, String decisionId) {
            this.line = line;
            this.decisionId = decisionId;
        }
    }
}
