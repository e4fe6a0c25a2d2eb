package dev.gatehouse.gateway.audit;

import dev.gatehouse.gateway.policy.PolicyJson;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decision log: one JSON line per decision (schemas/decision-log-record.json), appended to
 * {@code gatehouse.audit.path}. The PEP calls {@link #record} after the PDP answered and before the handler runs,
 * for tools/list and tools/call, allow, deny and fault alike.
 *
 * <p>Each line is written whole through an unbuffered append-only channel while a lock is held, so lines never
 * interleave and a returned {@link LogResult.Written} means the line is in the operating system's hands (it is not
 * fsynced). If the file cannot be opened or written, {@link #record} returns {@link LogResult.NotWritten} and the
 * next call tries to open it again; the constructor never throws, so the gateway starts and denies until the log
 * is writable.
 */
@Singleton
public class DecisionLog {

    private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);

    private final Path file;
    private final ReentrantLock lock = new ReentrantLock();
    private FileChannel channel;

    /** Opens (creating if needed) the log file; a failure is logged and retried on the first record. */
    public DecisionLog(DecisionLogConfiguration configuration) {
        this.file = configuration.file();
        lock.lock();
        try {
            open();
        } catch (IOException e) {
            LOG.error("Decision log {} cannot be opened; every call is denied until it can: {}", file, e.toString());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes one record as one line and returns once it is written.
     *
     * @return {@link LogResult.Written}, or {@link LogResult.NotWritten} with the reason when the line could not be
     *         written whole (the PEP then denies)
     */
    public LogResult record(DecisionRecord record) {
        byte[] line;
        try {
            line = (PolicyJson.write(DecisionRecordJson.encode(record)) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (RuntimeException | StackOverflowError e) { // e.g. arguments nested too deep to serialise
            return new LogResult.NotWritten("record " + record.decisionId() + " cannot be serialised: " + e);
        }
        lock.lock();
        try {
            if (channel == null) {
                open();
            }
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            return new LogResult.Written();
        } catch (IOException e) {
            closeQuietly();
            LOG.error("Decision log {} write failed; the call is denied: {}", file, e.toString());
            return new LogResult.NotWritten("decision log " + file + " cannot be written: " + e);
        } finally {
            lock.unlock();
        }
    }

    /** The file records go to. */
    public Path file() {
        return file;
    }

    /** Closes the file. */
    @PreDestroy
    public void close() {
        lock.lock();
        try {
            closeQuietly();
        } finally {
            lock.unlock();
        }
    }

    private void open() throws IOException {
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }

    private void closeQuietly() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.warn("Decision log {} did not close cleanly: {}", file, e.toString());
            }
            channel = null;
        }
    }
}
