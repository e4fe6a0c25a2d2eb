package dev.gatehouse.gateway.audit.shipping;

import dev.gatehouse.gateway.audit.DecisionLogSink;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The records the decision log's writer handed a sink ({@link DecisionLogSink#appended}), kept in memory until the
 * sink's cursor has passed them, so the sink takes them from here instead of reading them back from the file. Bounded:
 * at most {@code maxRecords} records and {@code maxBytes} bytes of lines are kept; a write that does not fit is
 * dropped whole ({@link #dropped}), and the sink reads those records from the file as it does after a restart.
 *
 * <p>One writer thread {@link #offer offers}, one sink thread {@link #continuing reads}; neither waits for the other
 * (a lock-free queue). Records are only used where they continue exactly at the sink's cursor, and never past what
 * the writer reported written ({@link LogTail.Live}), so taking them or reading the file gives the same records.
 */
final class Handoff {

    /**
     * The records of one write: the file whose first record is {@code firstId}, the {@code file}-th the writer wrote
     * to since start, bytes {@code [from, to)}.
     */
    private record Piece(String firstId, long file, long from, long to, List<DecisionLogSink.Appended> records) {
    }

    private final int maxRecords;
    private final long maxBytes;
    private final ConcurrentLinkedQueue<Piece> pieces = new ConcurrentLinkedQueue<>();
    /** Records and bytes in {@link #pieces}: raised by the writer before it adds, lowered by the sink once removed. */
    private final AtomicInteger records = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    /**
     * Which of the files written since start each is (by its first record), so the sink knows a file it left from one
     * it has yet to reach; entries of files before the sink's cursor's are forgotten.
     */
    private final Map<String, Long> files = new ConcurrentHashMap<>();
    /** Touched by the writer thread only: the file of the last write, and how many files it has written to. */
    private String lastFirstId;
    private long written;
    /** Touched by the sink thread only: the cursor's file when the entries before it were last forgotten. */
    private String forgottenBefore;

    /**
     * @param maxRecords records kept at most
     * @param maxBytes   bytes of lines kept at most
     */
    Handoff(int maxRecords, long maxBytes) {
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
    }

    /**
     * On the writer thread: keeps the records of one write, or drops them all when they do not fit.
     *
     * @return whether they were kept
     */
    boolean offer(String firstId, long from, List<DecisionLogSink.Appended> appended) {
        long size = 0;
        for (DecisionLogSink.Appended record : appended) {
            size += record.line().length;
        }
        if (firstId == null) {
            dropped.addAndGet(appended.size());
            return false;
        }
        if (!firstId.equals(lastFirstId)) {
            lastFirstId = firstId;
            files.put(firstId, ++written);
        }
        // Only this thread raises the counts, so what it reads here is at least what the queue holds.
        if (records.get() + appended.size() > maxRecords || bytes.get() + size > maxBytes) {
            dropped.addAndGet(appended.size());
            return false;
        }
        records.addAndGet(appended.size());
        bytes.addAndGet(size);
        pieces.add(new Piece(firstId, written, from, from + size, appended));
        return true;
    }

    /** Records dropped since start because the hand-off was full. */
    long dropped() {
        return dropped.get();
    }

    /**
     * On the sink thread: up to {@code max} kept records that continue exactly at {@code at}, none past what the
     * writer {@code reported} of the live file; empty when the next kept record does not start there (nothing
     * kept yet, a record dropped, the cursor in another file), and then the file is read. Forgets the records the
     * cursor has passed, also those of files written before the cursor's.
     */
    Optional<LogTail.Chunk> continuing(ShipCursor at, Supplier<LogTail.Live> reported, int max) {
        Long file = at.firstId() == null ? null : files.get(at.firstId());
        if (file != null && !at.firstId().equals(forgottenBefore)) {
            files.values().removeIf(n -> n < file);
            forgottenBefore = at.firstId();
        }
        Piece head = pieces.peek();
        while (head != null && behind(head, at, file)) {
            pieces.poll();
            records.addAndGet(-head.records().size());
            bytes.addAndGet(-(head.to() - head.from()));
            head = pieces.peek();
        }
        // Asked after the head was seen: the writer reports a fresh live file before it hands its records.
        LogTail.Live live = reported.get();
        if (head == null || at.firstId() == null || !at.firstId().equals(head.firstId()) || head.from() > at.offset()) {
            return Optional.empty();
        }
        long limit = head.firstId().equals(live.firstId()) ? live.bytes() : Long.MAX_VALUE;
        List<byte[]> lines = new ArrayList<>();
        List<DecisionLogSink.Appended> handed = new ArrayList<>();
        long offset = head.from();
        Iterator<Piece> queued = pieces.iterator(); // starts at head: only this thread removes
        while (queued.hasNext() && lines.size() < max) {
            Piece piece = queued.next();
            if (!piece.firstId().equals(at.firstId()) || piece.from() != offset) {
                break; // records of this file were dropped here
            }
            for (DecisionLogSink.Appended record : piece.records()) {
                long end = offset + record.line().length;
                if (offset < at.offset()) { // taken already
                    offset = end;
                    continue;
                }
                if (offset != at.offset() && lines.isEmpty()) {
                    return Optional.empty(); // the cursor is not at a record's start (it never is)
                }
                if (end > limit || lines.size() == max) {
                    return chunk(at, offset, lines, handed);
                }
                lines.add(record.line());
                handed.add(record);
                offset = end;
            }
        }
        return chunk(at, offset, lines, handed);
    }

    private static Optional<LogTail.Chunk> chunk(ShipCursor at, long to, List<byte[]> lines,
            List<DecisionLogSink.Appended> handed) {
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new LogTail.Chunk(at.firstId(), to, lines, false, handed));
    }

    /**
     * Whether {@code piece} is of no more use: the cursor is past it in its file, or it is of a file written before
     * the cursor's, the {@code file}-th since start (null when that file was written before start, or nothing is
     * indexed yet: then every kept record is still ahead).
     */
    private static boolean behind(Piece piece, ShipCursor at, Long file) {
        if (piece.firstId().equals(at.firstId())) {
            return piece.to() <= at.offset();
        }
        return file != null && piece.file() < file;
    }
}
