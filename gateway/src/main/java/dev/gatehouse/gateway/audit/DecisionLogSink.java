package dev.gatehouse.gateway.audit;

import java.nio.file.Path;

/**
 * Follows the decision log's files (e.g. the shipper to an OPA-compatible decision-log service, which reads the
 * records from the files itself). The {@link DecisionLog} writer calls {@link #written} and {@link #rotated} on its
 * own thread, in the order things happen; they must return at once. The local decision log stays the record that
 * must succeed; a sink only follows it, and decides with {@link #shipped} which rotated files the log may delete
 * before their retention age ({@link LogRetention}).
 */
public interface DecisionLogSink {

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
