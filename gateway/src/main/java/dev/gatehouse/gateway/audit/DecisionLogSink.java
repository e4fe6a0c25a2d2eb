package dev.gatehouse.gateway.audit;

import dev.gatehouse.gateway.decisions.DecisionRecords;
import java.nio.file.Path;
import java.util.List;

/**
 * Follows the decision log's files (e.g. the shipper to an OPA-compatible decision-log service, which reads the
 * records from the files itself, or the decision index's feed, which takes what the writer hands it). The
 * {@link DecisionLog} writer calls {@link #appended}, {@link #written} and {@link #rotated} on its own thread, in the
 * order things happen; they must return at once. The local decision log stays the record that must succeed; a sink
 * only follows it, and decides with {@link #shipped} which rotated files the log may delete before their retention
 * age ({@link LogRetention}).
 */
public interface DecisionLogSink {

    /**
     * One record as the writer appended it.
     *
     * @param line    its line as written, UTF-8, with its newline; never changed, and not to be changed
     * @param listing what the decision index lists of it, read from the tree the line was written from;
     *                {@code null} when only the line can tell
     *                ({@link DecisionRecords#listing(com.fasterxml.jackson.databind.JsonNode, java.util.UUID,
     *                java.time.Instant)}): then the line is read
     */
    record Appended(byte[] line, DecisionRecords.Listing listing) {
    }

    /**
     * The live file whose first record has the id {@code firstId} now holds {@code records} from byte {@code from}
     * on, one after the other, as the OS took them (with their values in its values file). Called after each write
     * that appended records, right before the {@link #written} report that covers them. A sink may keep the records
     * instead of reading them back from the file; one that reads the files ignores this (the default).
     */
    default void appended(String firstId, long from, List<Appended> records) {
    }

    /**
     * The live file, whose first record has the id {@code firstId}, holds whole written records up to
     * {@code liveBytes}; bytes after that may still be cut back and must not be read. Called when the log is opened
     * ({@code firstId} {@code null} for an empty file), before the first record of a fresh live file is written
     * (with {@code liveBytes} 0), and after every write.
     */
    void written(String firstId, long liveBytes);

    /** The live file whose first record has the id {@code firstId} was renamed to {@code rotated}. */
    void rotated(String firstId, Path rotated);

    /** Whether every record of the rotated file {@code rotated} (first record {@code firstId}) was taken. */
    boolean shipped(Path rotated, String firstId);
}
