package dev.gatehouse.gateway.audit;

import dev.gatehouse.gateway.SettingChecks;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the decision log, under {@code gatehouse.audit}. Every setter rejects a value that makes no sense
 * (zero or negative sizes, counts and durations) with {@link IllegalArgumentException}, so a bad configuration
 * fails at startup instead of at the first call.
 */
@ConfigurationProperties(DecisionLogConfiguration.PREFIX)
public class DecisionLogConfiguration {

    public static final String PREFIX = "gatehouse.audit";
    /** A reduced record (ids, caller, revision, one reason per code) always fits in this many bytes. */
    static final int MIN_RECORD_BYTES = 4096;

    private String path = "logs/decisions.jsonl";
    private int queueCapacity = 8192;
    private Duration writeTimeout = Duration.ofSeconds(2);
    private boolean fsync = false;
    private long maxFileBytes = 64L * 1024 * 1024;
    private Duration maxFileAge = Duration.ofHours(24);
    private int maxFiles = 10;
    private Duration retention = Duration.ofDays(7);
    private int maxArgumentBytes = 256;
    private int maxRecordBytes = 16 * 1024;

    /**
     * The live JSON Lines file records are appended to; created with its parent directories when missing. A
     * relative path is resolved against the working directory. Rotated files go beside it (see
     * {@link DecisionLog}). One gateway process per file. Default {@code logs/decisions.jsonl}.
     */
    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    /**
     * {@code queue-capacity}: records waiting for the writer thread, at most. A record that finds the queue full is
     * not written ({@code decision log queue full}) and its call is denied at once. Default 8192.
     */
    public int getQueueCapacity() {
        return queueCapacity;
    }

    public void setQueueCapacity(int queueCapacity) {
        this.queueCapacity = SettingChecks.positive(PREFIX + ".queue-capacity", queueCapacity);
    }

    /**
     * {@code write-timeout}: how long {@link DecisionLog#record} waits for its line to be written (queueing, the
     * write and, with {@link #isFsync()}, the fsync) before it gives up and returns {@code NotWritten}. Default 2 s.
     */
    public Duration getWriteTimeout() {
        return writeTimeout;
    }

    public void setWriteTimeout(Duration writeTimeout) {
        this.writeTimeout = SettingChecks.positive(PREFIX + ".write-timeout", writeTimeout);
    }

    /**
     * {@code fsync}: whether every batch is forced to the storage device ({@code fdatasync}) before its records
     * count as written. Default {@code false}: written means handed to the operating system, which survives a
     * gateway crash but not a power loss.
     */
    public boolean isFsync() {
        return fsync;
    }

    public void setFsync(boolean fsync) {
        this.fsync = fsync;
    }

    /**
     * {@code max-file-bytes}: the live file is rotated before a line that would take it and its values file
     * together past this size, so no pair is larger unless one record alone is. Default 64 MiB (67108864).
     */
    public long getMaxFileBytes() {
        return maxFileBytes;
    }

    public void setMaxFileBytes(long maxFileBytes) {
        this.maxFileBytes = SettingChecks.positive(PREFIX + ".max-file-bytes", maxFileBytes);
    }

    /**
     * {@code max-file-age}: a live file whose first line is this old is rotated before the next line is written
     * (an idle log is not rotated until it writes again). Default 24 h.
     */
    public Duration getMaxFileAge() {
        return maxFileAge;
    }

    public void setMaxFileAge(Duration maxFileAge) {
        this.maxFileAge = SettingChecks.positive(PREFIX + ".max-file-age", maxFileAge);
    }

    /**
     * {@code max-files}: the space budget, in rotated files kept beside the live one (each at most
     * {@code max-file-bytes} with its values). Files past {@link #getRetention()} are deleted whatever the count;
     * beyond this count shipped files are deleted, oldest first, and when that is not enough the newest rotated
     * files are deleted although neither shipped nor expired, logged at ERROR, counted and reported by
     * {@code /health} ({@link LogRetention}). At least 1. Default 10.
     */
    public int getMaxFiles() {
        return maxFiles;
    }

    public void setMaxFiles(int maxFiles) {
        this.maxFiles = SettingChecks.positive(PREFIX + ".max-files", maxFiles);
    }

    /**
     * {@code retention}: how long a rotated file is kept at least unless it was shipped, and at most: a file
     * rotated this long ago (its newest record is this old) is deleted at the next rotation. Default 7 days.
     */
    public Duration getRetention() {
        return retention;
    }

    public void setRetention(Duration retention) {
        this.retention = SettingChecks.positive(PREFIX + ".retention", retention);
    }

    /**
     * {@code max-argument-bytes}: the longest string or member name a record holds, in UTF-8 bytes. A longer one,
     * anywhere in the record (arguments, facts, the result, reasons and obligations, the tool name), is written as
     * {@code {"length": <bytes>, "sha256": "<hex>"}} (a member name as {@code "sha256:<hex>"}) and its pointer
     * listed in {@code redacted} ({@code redactedKeys}); the value goes once to the values file. Default 256.
     */
    public int getMaxArgumentBytes() {
        return maxArgumentBytes;
    }

    public void setMaxArgumentBytes(int maxArgumentBytes) {
        this.maxArgumentBytes = SettingChecks.positive(PREFIX + ".max-argument-bytes", maxArgumentBytes);
    }

    /**
     * {@code max-record-bytes}: the longest line written, in UTF-8 bytes with its newline. A record that would be
     * longer is written reduced: its decision, reasons, ids, caller and bundle revision, with {@code reduced}
     * naming the whole record, which goes to the values file. At least 4096. Default 16 KiB (16384).
     */
    public int getMaxRecordBytes() {
        return maxRecordBytes;
    }

    public void setMaxRecordBytes(int maxRecordBytes) {
        if (maxRecordBytes < MIN_RECORD_BYTES) {
            throw new IllegalArgumentException(PREFIX + ".max-record-bytes must be at least " + MIN_RECORD_BYTES
                    + ", not " + maxRecordBytes);
        }
        this.maxRecordBytes = maxRecordBytes;
    }

    /** The live log file as an absolute path. */
    public Path file() {
        return Path.of(path).toAbsolutePath();
    }
}
