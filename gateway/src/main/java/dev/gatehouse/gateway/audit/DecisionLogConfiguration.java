package dev.gatehouse.gateway.audit;

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

    private String path = "logs/decisions.jsonl";
    private int queueCapacity = 8192;
    private Duration writeTimeout = Duration.ofSeconds(2);
    private boolean fsync = false;
    private long maxFileBytes = 64L * 1024 * 1024;
    private Duration maxFileAge = Duration.ofHours(24);
    private int maxFiles = 10;
    private int maxArgumentBytes = 256;

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
        this.queueCapacity = positive("queue-capacity", queueCapacity);
    }

    /**
     * {@code write-timeout}: how long {@link DecisionLog#record} waits for its line to be written (queueing, the
     * write and, with {@link #isFsync()}, the fsync) before it gives up and returns {@code NotWritten}. Default 2 s.
     */
    public Duration getWriteTimeout() {
        return writeTimeout;
    }

    public void setWriteTimeout(Duration writeTimeout) {
        this.writeTimeout = positive("write-timeout", writeTimeout);
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
     * {@code max-file-bytes}: the live file is rotated before a line that would take it past this size, so no file
     * is larger unless one line alone is. Default 64 MiB (67108864).
     */
    public long getMaxFileBytes() {
        return maxFileBytes;
    }

    public void setMaxFileBytes(long maxFileBytes) {
        if (maxFileBytes <= 0) {
            throw new IllegalArgumentException(PREFIX + ".max-file-bytes must be positive, not " + maxFileBytes);
        }
        this.maxFileBytes = maxFileBytes;
    }

    /**
     * {@code max-file-age}: a live file whose first line is this old is rotated before the next line is written
     * (an idle log is not rotated until it writes again). Default 24 h.
     */
    public Duration getMaxFileAge() {
        return maxFileAge;
    }

    public void setMaxFileAge(Duration maxFileAge) {
        this.maxFileAge = positive("max-file-age", maxFileAge);
    }

    /**
     * {@code max-files}: rotated files kept beside the live one; after a rotation the oldest beyond this number are
     * deleted. {@code 0} keeps none. Default 10.
     */
    public int getMaxFiles() {
        return maxFiles;
    }

    public void setMaxFiles(int maxFiles) {
        if (maxFiles < 0) {
            throw new IllegalArgumentException(PREFIX + ".max-files must not be negative, not " + maxFiles);
        }
        this.maxFiles = maxFiles;
    }

    /**
     * {@code max-argument-bytes}: a string anywhere under {@code input.arguments} longer than this many UTF-8
     * bytes is logged as {@code {"length": <bytes>, "sha256": "<hex>"}} and its pointer listed in
     * {@code redacted}. Default 256.
     */
    public int getMaxArgumentBytes() {
        return maxArgumentBytes;
    }

    public void setMaxArgumentBytes(int maxArgumentBytes) {
        this.maxArgumentBytes = positive("max-argument-bytes", maxArgumentBytes);
    }

    /** The live log file as an absolute path. */
    public Path file() {
        return Path.of(path).toAbsolutePath();
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(PREFIX + "." + name + " must be positive, not " + value);
        }
        return value;
    }

    private static Duration positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(PREFIX + "." + name + " must be a positive duration, not " + value);
        }
        return value;
    }
}
