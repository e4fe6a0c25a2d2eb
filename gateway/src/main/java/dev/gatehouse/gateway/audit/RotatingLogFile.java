package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live log file, its values file and their rotated predecessors ({@link LogFiles} names them), used by one
 * thread (the {@link DecisionLog} writer). Which rotated files are deleted is {@link LogRetention}'s decision.
 *
 * <p>Writes go through one channel per file in append mode, the values before the lines that stand in for them. A
 * write that fails is cut back to the sizes before it, and a file that ends in a partial line when opened (a crash
 * mid-write) is truncated after its last newline, so every line in every file is whole, and every value a written
 * line refers to is in its values file. Rotation renames the log file and then its values file; a values file left
 * behind by a crash between the two renames is moved to its log file when the log is opened again. New files are
 * created {@code rw-r-----}.
 */
final class RotatingLogFile {

    /** The mode of a new log or values file: the owner writes, its group (a log shipper) reads, nobody else. */
    private static final Set<PosixFilePermission> MODE = PosixFilePermissions.fromString("rw-r-----");

    private static final Logger LOG = LoggerFactory.getLogger(RotatingLogFile.class);
    private static final int MAX_SEQUENCE = 9999;
    /** The start of a values-file line: its digest and whether it holds a string or a JSON value. */
    private static final Pattern VALUE_LINE = Pattern.compile("\\{\"sha256\":\"([0-9a-f]{64})\",\"(value|json)\"");

    private final Path live;
    private final Path liveValues;
    private final long maxBytes;
    private final Duration maxAge;
    private final boolean fsync;
    private final Clock clock;
    private final UnaryOperator<WritableByteChannel> wrap;

    private FileChannel channel;
    private WritableByteChannel out;
    private long size;
    /** Open once the live file has a values file. */
    private FileChannel valuesChannel;
    private WritableByteChannel valuesOut;
    private long valuesSize;
    /** {@link StoredValue#key()} of every value in the live values file. */
    private final Set<String> valueKeys = new HashSet<>();
    /** When the live file got its first line; {@code null} while it is empty. */
    private Instant startedAt;
    /** The {@code decision_id} of the live file's first record; {@code null} while it is empty. */
    private String firstId;
    /** {@link #maxBytes}, or further on after a rotation failed, so a failing rename is not retried per line. */
    private long limit;
    /** The last rotated name given. */
    private String lastRotatedName;

    RotatingLogFile(Path live, long maxBytes, Duration maxAge, boolean fsync, Clock clock,
            UnaryOperator<WritableByteChannel> wrap) {
        this.live = live;
        this.liveValues = LogFiles.valuesFile(live);
        this.maxBytes = maxBytes;
        this.maxAge = maxAge;
        this.fsync = fsync;
        this.clock = clock;
        this.wrap = wrap;
        this.limit = maxBytes;
    }

    /**
     * Opens the live file and its values file if they are not open, repairing a torn last line of each and taking
     * back a values file a crash left behind first.
     */
    void ensureOpen() throws IOException {
        if (channel != null) {
            return;
        }
        Path parent = live.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        adoptLeftValues();
        repairTornTail(live);
        repairTornTail(liveValues);
        channel = append(live);
        out = wrap.apply(channel);
        size = channel.size();
        valueKeys.clear();
        valuesSize = 0;
        if (Files.exists(liveValues)) {
            openValues();
            loadValueKeys();
        }
        Optional<JsonNode> first = size == 0 ? Optional.empty() : LogFiles.firstRecord(live);
        startedAt = size == 0 ? null : first.map(this::timestamp).orElse(clock.instant());
        firstId = first.map(record -> record.path("decision_id").asText(null)).orElse(null);
    }

    /**
     * Whether {@code bytes} more fit after {@code pendingBytes} not yet written, counting the log and its values
     * file together; an empty pair takes anything.
     */
    boolean fits(long pendingBytes, long bytes) {
        long before = size + valuesSize + pendingBytes;
        return before == 0 || before + bytes <= limit;
    }

    /** Whether the live values file holds the value with this {@link StoredValue#key()}. */
    boolean hasValue(String key) {
        return valueKeys.contains(key);
    }

    /** Whether the live file holds no record. */
    boolean empty() {
        return size == 0;
    }

    /** The {@code decision_id} of the live file's first record; {@code null} while it is empty. */
    String firstId() {
        return firstId;
    }

    /** The live file's size in bytes (whole records only, between writes). */
    long size() {
        return size;
    }

    /** Whether the live file's first line is {@code max-file-age} old. */
    boolean tooOld() {
        return startedAt != null && size > 0 && !clock.instant().isBefore(startedAt.plus(maxAge));
    }

    /**
     * Writes whole values-file lines, all of {@code values} (their keys {@code valueKeys}), then whole log lines,
     * all of {@code lines}, each through one channel write when the OS takes it at once; with fsync, forces each to
     * the device before the next. On failure both files are cut back to their sizes before the call and closed
     * (the next {@link #ensureOpen} reopens them).
     *
     * @param firstLineId the {@code decision_id} of the first of {@code lines}, kept when the live file was empty
     */
    void write(ByteBuffer values, Collection<String> valueKeys, ByteBuffer lines, String firstLineId)
            throws IOException {
        ensureOpen();
        long before = size;
        long valuesBefore = valuesSize;
        try {
            if (values.hasRemaining()) {
                openValues();
                while (values.hasRemaining()) {
                    valuesSize += valuesOut.write(values);
                }
                if (fsync) {
                    valuesChannel.force(false);
                }
            }
            while (lines.hasRemaining()) {
                size += out.write(lines);
            }
            if (fsync) {
                channel.force(false);
            }
        } catch (IOException | RuntimeException e) {
            cutBack(channel, before);
            cutBack(valuesChannel, valuesBefore);
            size = before;
            valuesSize = valuesBefore;
            closeQuietly();
            throw e instanceof IOException io ? io : new IOException(e);
        }
        this.valueKeys.addAll(valueKeys);
        if (before == 0 && size > 0) {
            startedAt = clock.instant();
            firstId = firstLineId;
        }
    }

    private static void cutBack(FileChannel file, long size) {
        try {
            if (file != null && file.isOpen()) {
                file.truncate(size);
            }
        } catch (IOException | RuntimeException ignored) {
            // the torn tail is repaired when the file is opened again
        }
    }

    /**
     * Closes the live file, renames it and then its values file to the next rotated name and opens a fresh live
     * file. A failed rename is logged and the live file goes on growing until it has grown by another
     * {@code max-file-bytes} (or aged again), when rotation is tried again.
     *
     * @return the rotated file; empty when the live file was empty or could not be renamed
     * @throws IOException when the fresh live file cannot be opened
     */
    Optional<Path> rotate() throws IOException {
        ensureOpen();
        if (size == 0) {
            return Optional.empty();
        }
        if (fsync) {
            channel.force(false);
        }
        closeQuietly();
        Path target;
        try {
            target = live.resolveSibling(nextRotatedName());
            Files.move(live, target, StandardCopyOption.ATOMIC_MOVE);
            limit = maxBytes;
        } catch (IOException e) {
            LOG.error("Decision log {} could not be rotated; it keeps growing: {}", live, e.toString());
            ensureOpen();
            limit = size + valuesSize + maxBytes;
            startedAt = clock.instant();
            return Optional.empty();
        }
        if (Files.exists(liveValues)) {
            try {
                Files.move(liveValues, LogFiles.valuesFile(target), StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                // ensureOpen below tries again: the fresh live file is empty and target has no values file
                LOG.error("Decision log values {} could not be moved beside {}: {}", liveValues, target, e.toString());
            }
        }
        ensureOpen();
        return Optional.of(target);
    }

    /** Closes the live file; a later write opens it again. */
    void close() {
        if (channel != null && fsync) {
            try {
                channel.force(false);
            } catch (IOException e) {
                LOG.warn("Decision log {} could not be forced on close: {}", live, e.toString());
            }
        }
        closeQuietly();
    }

    private void closeQuietly() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.warn("Decision log {} did not close cleanly: {}", live, e.toString());
            }
            channel = null;
            out = null;
        }
        if (valuesChannel != null) {
            try {
                valuesChannel.close();
            } catch (IOException e) {
                LOG.warn("Decision log values {} did not close cleanly: {}", liveValues, e.toString());
            }
            valuesChannel = null;
            valuesOut = null;
        }
    }

    /**
     * A log file opened for appending; a new one is created readable by its owner and group only ({@link #MODE}):
     * the records hold what callers sent. A file that exists keeps the mode it has (an operator may have chosen
     * another). On a file system without POSIX permissions, the file system's default.
     */
    private static FileChannel append(Path file) throws IOException {
        Set<OpenOption> options = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        if (!file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return FileChannel.open(file, options);
        }
        return FileChannel.open(file, options, PosixFilePermissions.asFileAttribute(MODE));
    }

    private void openValues() throws IOException {
        if (valuesChannel == null) {
            valuesChannel = append(liveValues);
            valuesOut = wrap.apply(valuesChannel);
            valuesSize = valuesChannel.size();
        }
    }

    /** Reads the key of every line of the live values file (only the start of each line is looked at). */
    private void loadValueKeys() throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(liveValues), 1 << 16)) {
            byte[] head = new byte[96];
            int length = 0;
            for (int b; (b = in.read()) >= 0; ) {
                if (b == '\n') {
                    Matcher line = VALUE_LINE.matcher(new String(head, 0, length, StandardCharsets.US_ASCII));
                    if (line.lookingAt()) {
                        valueKeys.add((line.group(2).equals("json") ? "j" : "s") + line.group(1));
                    }
                    length = 0;
                } else if (length < head.length) {
                    head[length++] = (byte) b;
                }
            }
        }
    }

    /**
     * A crash between the two renames of {@link #rotate} leaves the live values file without its log file: while
     * the live file is missing or empty and the newest rotated file has no values file, the live values file is
     * that file's.
     */
    private void adoptLeftValues() throws IOException {
        if (!Files.exists(liveValues) || (Files.exists(live) && Files.size(live) > 0)) {
            return;
        }
        List<Path> rotated = LogFiles.rotated(live);
        if (!rotated.isEmpty() && !Files.exists(LogFiles.valuesFile(rotated.get(rotated.size() - 1)))) {
            Path target = LogFiles.valuesFile(rotated.get(rotated.size() - 1));
            Files.move(liveValues, target, StandardCopyOption.ATOMIC_MOVE);
            LOG.warn("Decision log values {} left by an interrupted rotation moved to {}", liveValues, target);
        }
    }

    /** Cuts a trailing partial line (no final newline) of {@code path} left by a crash mid-write. */
    private static void repairTornTail(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long length = file.size();
            if (length == 0 || lastByte(file, length) == '\n') {
                return;
            }
            ByteBuffer chunk = ByteBuffer.allocate(8192);
            long end = length;
            long keep = 0;
            search:
            while (end > 0) {
                long start = Math.max(0, end - chunk.capacity());
                chunk.clear().limit((int) (end - start));
                while (chunk.hasRemaining()) {
                    if (file.read(chunk, start + chunk.position()) < 0) {
                        break;
                    }
                }
                for (int i = chunk.position() - 1; i >= 0; i--) {
                    if (chunk.get(i) == '\n') {
                        keep = start + i + 1;
                        break search;
                    }
                }
                end = start;
            }
            file.truncate(keep);
            LOG.warn("Decision log {} ended in a partial line (a crash mid-write); cut {} bytes", path,
                    length - keep);
        }
    }

    private static byte lastByte(FileChannel file, long length) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        file.read(one, length - 1);
        return one.get(0);
    }

    /** A record's {@code timestamp}, or now when it has none that parses. */
    private Instant timestamp(JsonNode record) {
        try {
            return Instant.parse(record.path("timestamp").asText());
        } catch (RuntimeException e) {
            return clock.instant();
        }
    }

    /**
     * A name after every rotated name there is and every one this process gave (a deleted newest file's name is
     * not given again, so a name always means one file).
     */
    private String nextRotatedName() throws IOException {
        String stamp = LogFiles.STAMP.format(clock.instant());
        int sequence = 1;
        List<Path> existing = LogFiles.rotated(live);
        String newestName = existing.isEmpty() ? null : existing.get(existing.size() - 1).getFileName().toString();
        if (lastRotatedName != null && (newestName == null || lastRotatedName.compareTo(newestName) > 0)) {
            newestName = lastRotatedName;
        }
        if (newestName != null) {
            Optional<Matcher> newest = LogFiles.rotatedName(live, newestName);
            if (newest.isPresent() && stamp.compareTo(newest.get().group(1)) <= 0) {
                stamp = newest.get().group(1);
                sequence = Integer.parseInt(newest.get().group(2)) + 1;
                if (sequence > MAX_SEQUENCE) {
                    stamp = LogFiles.STAMP.format(Instant.from(LogFiles.STAMP.parse(stamp)).plusSeconds(1));
                    sequence = 1;
                }
            }
        }
        lastRotatedName = LogFiles.rotatedName(live, stamp, sequence);
        return lastRotatedName;
    }
}
