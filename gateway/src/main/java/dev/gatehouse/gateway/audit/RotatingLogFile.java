package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.policy.PolicyJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live log file and its rotated predecessors, used by one thread (the {@link DecisionLog} writer).
 *
 * <p>Rotated files sit beside the live one as {@code <stem>-<yyyyMMdd'T'HHmmss'Z'>-<nnnn><ext>}, e.g.
 * {@code decisions-20261201T093000Z-0001.jsonl} for {@code decisions.jsonl}: the UTC second of the rotation and a
 * four-digit sequence number. Names are chosen so that lexical order is rotation order even within one second or
 * when the clock steps back (a name never sorts before an existing one), so {@link #files(Path)} (rotated files in
 * lexical order, then the live file) lists every record once, oldest first.
 *
 * <p>Writes go through one channel in append mode. A write that fails is cut back to the size before it, and a
 * file that ends in a partial line when opened (a crash mid-write) is truncated after its last newline, so every
 * line in every file is a whole record.
 */
final class RotatingLogFile {

    private static final Logger LOG = LoggerFactory.getLogger(RotatingLogFile.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final int MAX_SEQUENCE = 9999;

    private final Path live;
    private final long maxBytes;
    private final Duration maxAge;
    private final int maxFiles;
    private final boolean fsync;
    private final Clock clock;
    private final UnaryOperator<WritableByteChannel> wrap;

    private FileChannel channel;
    private WritableByteChannel out;
    private long size;
    /** When the live file got its first line; {@code null} while it is empty. */
    private Instant startedAt;
    /** {@link #maxBytes}, or further on after a rotation failed, so a failing rename is not retried per line. */
    private long limit;

    RotatingLogFile(Path live, long maxBytes, Duration maxAge, int maxFiles, boolean fsync, Clock clock,
            UnaryOperator<WritableByteChannel> wrap) {
        this.live = live;
        this.maxBytes = maxBytes;
        this.maxAge = maxAge;
        this.maxFiles = maxFiles;
        this.fsync = fsync;
        this.clock = clock;
        this.wrap = wrap;
        this.limit = maxBytes;
    }

    /**
     * Every log file of {@code live} that exists, oldest first: the rotated ones in lexical (= rotation) order, then
     * the live file. Reading them in this order gives every record once, in the order written.
     */
    static List<Path> files(Path live) throws IOException {
        List<Path> files = new ArrayList<>(rotated(live));
        if (Files.exists(live)) {
            files.add(live);
        }
        return files;
    }

    /** Opens the live file if it is not open, repairing a torn last line first. */
    void ensureOpen() throws IOException {
        if (channel != null) {
            return;
        }
        Path parent = live.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        repairTornTail();
        channel = FileChannel.open(live, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        out = wrap.apply(channel);
        size = channel.size();
        startedAt = size == 0 ? null : firstLineTime();
    }

    /** Whether a line of {@code lineBytes} fits after {@code pendingBytes} not yet written; an empty file takes any. */
    boolean fits(long pendingBytes, int lineBytes) {
        long before = size + pendingBytes;
        return before == 0 || before + lineBytes <= limit;
    }

    /** Whether the live file's first line is {@code max-file-age} old. */
    boolean tooOld() {
        return startedAt != null && size > 0 && !clock.instant().isBefore(startedAt.plus(maxAge));
    }

    /**
     * Writes whole lines, all of {@code lines}, through one channel write when the OS takes it at once; with fsync,
     * forces them to the device. On failure the file is cut back to its size before the call and closed (the next
     * {@link #ensureOpen} reopens it).
     */
    void write(ByteBuffer lines) throws IOException {
        ensureOpen();
        long before = size;
        try {
            while (lines.hasRemaining()) {
                size += out.write(lines);
            }
            if (fsync) {
                channel.force(false);
            }
        } catch (IOException | RuntimeException e) {
            try {
                if (channel.isOpen()) {
                    channel.truncate(before);
                }
            } catch (IOException | RuntimeException ignored) {
                // the torn tail is repaired when the file is opened again
            }
            closeQuietly();
            throw e instanceof IOException io ? io : new IOException(e);
        }
        if (startedAt == null && size > 0) {
            startedAt = clock.instant();
        }
    }

    /**
     * Closes the live file, renames it to the next rotated name, deletes the oldest rotated files beyond
     * {@code max-files} and opens a fresh live file. A failed rename is logged and the live file goes on growing
     * until it has grown by another {@code max-file-bytes} (or aged again), when rotation is tried again.
     *
     * @throws IOException when the fresh live file cannot be opened
     */
    void rotate() throws IOException {
        ensureOpen();
        if (size == 0) {
            return;
        }
        if (fsync) {
            channel.force(false);
        }
        closeQuietly();
        try {
            Path target = live.resolveSibling(nextRotatedName());
            Files.move(live, target, StandardCopyOption.ATOMIC_MOVE);
            limit = maxBytes;
        } catch (IOException e) {
            LOG.error("Decision log {} could not be rotated; it keeps growing: {}", live, e.toString());
            ensureOpen();
            limit = size + maxBytes;
            startedAt = clock.instant();
            return;
        }
        deleteBeyondRetention();
        ensureOpen();
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
    }

    /** Cuts a trailing partial line (no final newline) left by a crash mid-write. */
    private void repairTornTail() throws IOException {
        if (!Files.exists(live)) {
            return;
        }
        try (FileChannel file = FileChannel.open(live, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
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
            LOG.warn("Decision log {} ended in a partial line (a crash mid-write); cut {} bytes", live,
                    length - keep);
        }
    }

    private static byte lastByte(FileChannel file, long length) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        file.read(one, length - 1);
        return one.get(0);
    }

    /** The timestamp of the live file's first record, or now when it cannot be read. */
    private Instant firstLineTime() {
        try (FileChannel file = FileChannel.open(live, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate((int) Math.min(file.size(), 1 << 20));
            while (head.hasRemaining() && file.read(head) >= 0) {
                // fill
            }
            String text = new String(head.array(), 0, head.position(), StandardCharsets.UTF_8);
            int newline = text.indexOf('\n');
            JsonNode first = PolicyJson.MAPPER.readTree(newline < 0 ? text : text.substring(0, newline));
            return Instant.parse(first.get("timestamp").asText());
        } catch (IOException | RuntimeException e) {
            return clock.instant();
        }
    }

    private String nextRotatedName() throws IOException {
        String stamp = STAMP.format(clock.instant());
        int sequence = 1;
        List<Path> existing = rotated(live);
        if (!existing.isEmpty()) {
            Matcher newest = pattern(live).matcher(existing.get(existing.size() - 1).getFileName().toString());
            if (newest.matches() && stamp.compareTo(newest.group(1)) <= 0) {
                stamp = newest.group(1);
                sequence = Integer.parseInt(newest.group(2)) + 1;
                if (sequence > MAX_SEQUENCE) {
                    stamp = STAMP.format(Instant.from(STAMP.parse(stamp)).plusSeconds(1));
                    sequence = 1;
                }
            }
        }
        String[] parts = stemAndExtension(live);
        return parts[0] + "-" + stamp + "-" + String.format("%04d", sequence) + parts[1];
    }

    private void deleteBeyondRetention() throws IOException {
        List<Path> rotated = rotated(live);
        for (int i = 0; i < rotated.size() - maxFiles; i++) {
            try {
                Files.deleteIfExists(rotated.get(i));
            } catch (IOException e) {
                LOG.warn("Decision log {} beyond retention could not be deleted: {}", rotated.get(i), e.toString());
            }
        }
    }

    /** The rotated files of {@code live}, in lexical order (= rotation order). */
    private static List<Path> rotated(Path live) throws IOException {
        Path directory = live.toAbsolutePath().getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            return List.of();
        }
        Pattern pattern = pattern(live);
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.filter(p -> pattern.matcher(p.getFileName().toString()).matches())
                    .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .toList();
        }
    }

    private static Pattern pattern(Path live) {
        String[] parts = stemAndExtension(live);
        return Pattern.compile(Pattern.quote(parts[0]) + "-(\\d{8}T\\d{6}Z)-(\\d{4})" + Pattern.quote(parts[1]));
    }

    /** {@code decisions.jsonl} → {@code [decisions, .jsonl]}; a name without an extension gets {@code ""}. */
    private static String[] stemAndExtension(Path live) {
        String name = live.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? new String[] {name, ""} : new String[] {name.substring(0, dot), name.substring(dot)};
    }
}
