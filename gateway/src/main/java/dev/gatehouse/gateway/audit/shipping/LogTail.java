package dev.gatehouse.gateway.audit.shipping;

import dev.gatehouse.gateway.audit.DecisionLogSink;
import dev.gatehouse.gateway.audit.LogFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Reads whole records from one decision-log file for a sink that follows the log ({@link LogFollower}), never past
 * what the writer has reported written: a file is read up to the size the sink's {@code written} last reported when
 * its first record is the one reported for the live file, and whole otherwise. The writer reports a fresh live file's
 * first record before it writes it, so a file whose first record is not the reported one has been rotated and is
 * complete.
 */
final class LogTail {

    /** What the writer last reported of the live file (see {@link dev.gatehouse.gateway.audit.DecisionLogSink}). */
    record Live(String firstId, long bytes) {
    }

    /**
     * Records read from one file, or handed by the writer ({@link Handoff}).
     *
     * @param firstId  the id of the file's first record; {@code null} when it has none yet
     * @param to       the offset after the last record read
     * @param lines    the records, each with its newline
     * @param complete whether the file is no longer written to and {@code to} is its end
     * @param handed   the records as the writer handed them, one per line; empty when they were read from the file
     */
    record Chunk(String firstId, long to, List<byte[]> lines, boolean complete,
            List<DecisionLogSink.Appended> handed) {

        /** Records read from the file. */
        Chunk(String firstId, long to, List<byte[]> lines, boolean complete) {
            this(firstId, to, lines, complete, List.of());
        }
    }

    private LogTail() {
    }

    /**
     * Up to {@code maxRecords} whole records of {@code file} from {@code offset} on.
     *
     * @param rotated whether {@code file} has a rotated name (then it is never written again)
     * @param live    what the writer reports now; asked after the file was opened and its first record read
     */
    static Chunk read(Path file, boolean rotated, long offset, int maxRecords, Supplier<Live> live)
            throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            String firstId = LogFiles.firstId(channel).orElse(null);
            Live reported = live.get();
            boolean isLive = !rotated && (firstId == null || Objects.equals(firstId, reported.firstId()));
            long limit = !isLive ? channel.size() : firstId == null ? 0 : Math.min(reported.bytes(), channel.size());
            List<byte[]> lines = new ArrayList<>();
            // The start of a line that a read cut off; a line within one read is copied out of it whole.
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            byte[] bytes = chunk.array();
            long position = offset;
            long end = offset;
            while (position < limit && lines.size() < maxRecords) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), limit - position));
                int read = channel.read(chunk, position);
                if (read <= 0) {
                    break;
                }
                int start = 0;
                for (int i = 0; i < read; i++) {
                    if (bytes[i] != '\n') {
                        continue;
                    }
                    if (head.size() == 0) {
                        lines.add(Arrays.copyOfRange(bytes, start, i + 1));
                    } else {
                        head.write(bytes, start, i + 1 - start);
                        lines.add(head.toByteArray());
                        head.reset();
                    }
                    start = i + 1;
                    end = position + i + 1;
                    if (lines.size() == maxRecords) {
                        break;
                    }
                }
                head.write(bytes, start, read - start);
                position += read;
            }
            return new Chunk(firstId, end, lines, !isLive && end >= limit);
        }
    }
}
