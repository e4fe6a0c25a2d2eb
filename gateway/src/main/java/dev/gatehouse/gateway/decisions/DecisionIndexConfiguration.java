package dev.gatehouse.gateway.decisions;

import dev.gatehouse.gateway.SettingChecks;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/**
 * {@code gatehouse.decision-index}: the search index of decisions in the shared PostgreSQL ({@link DecisionIndex}),
 * fed off the request path from what the decision log's writer hands it, or from the log's files
 * (audit.shipping.IndexFeed). Every setter rejects a value that makes no sense with {@link IllegalArgumentException},
 * so a bad configuration fails at start-up.
 */
@ConfigurationProperties(DecisionIndexConfiguration.PREFIX)
public class DecisionIndexConfiguration {

    public static final String PREFIX = "gatehouse.decision-index";

    private boolean enabled = true;
    private Duration retention = Duration.ofDays(7);
    private long maxRecords = 2_000_000;
    private int scanLimit = 50_000;
    private Duration maxRange = Duration.ofDays(31);
    private int batchMaxRecords = 500;
    private Duration batchDelay = Duration.ofMillis(500);
    private int maxValuesBytes = 256 * 1024;
    private int handoffMaxRecords = 4096;
    private long handoffMaxBytes = 8L * 1024 * 1024;
    private Duration sweepInterval = Duration.ofMinutes(1);
    private Duration minBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofSeconds(60);

    /**
     * {@code enabled} ({@code GATEHOUSE_DECISION_INDEX}): whether this replica feeds its decisions into the index.
     * Default true. Off, the replica's decisions are only in its log files (the search still finds the others').
     */
    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * {@code retention} ({@code GATEHOUSE_DECISION_INDEX_RETENTION}): decisions older than this leave the index (the
     * decision log keeps its own retention). Default 7 days.
     */
    public Duration getRetention() {
        return retention;
    }

    public void setRetention(Duration retention) {
        this.retention = SettingChecks.positive(PREFIX + ".retention", retention);
    }

    /**
     * {@code max-records}: the index holds at most about this many decisions of all replicas; beyond it the oldest
     * leave first, whatever their age. Default 2,000,000 (about 3.5 GB at 1.5 KB a record with its row).
     */
    public long getMaxRecords() {
        return maxRecords;
    }

    public void setMaxRecords(long maxRecords) {
        this.maxRecords = SettingChecks.positive(PREFIX + ".max-records", maxRecords);
    }

    /**
     * {@code scan-limit}: one search looks at most at this many decisions of its range, newest first, before its
     * filters other than the agent apply; a search that would look further answers what it found, says where it
     * stopped and asks to narrow the range. Default 50,000.
     */
    public int getScanLimit() {
        return scanLimit;
    }

    public void setScanLimit(int scanLimit) {
        this.scanLimit = SettingChecks.positive(PREFIX + ".scan-limit", scanLimit);
    }

    /** {@code max-range}: the longest time range a search or export may name. Default 31 days. */
    public Duration getMaxRange() {
        return maxRange;
    }

    public void setMaxRange(Duration maxRange) {
        this.maxRange = SettingChecks.positive(PREFIX + ".max-range", maxRange);
    }

    /** {@code batch-max-records}: decisions written to the index in one statement, at most. Default 500. */
    public int getBatchMaxRecords() {
        return batchMaxRecords;
    }

    public void setBatchMaxRecords(int batchMaxRecords) {
        this.batchMaxRecords = SettingChecks.positive(PREFIX + ".batch-max-records", batchMaxRecords);
    }

    /**
     * {@code batch-delay}: how long a batch of the live log file waits to fill before it is written anyway, so a
     * decision is findable within about this time. Default 500 ms.
     */
    public Duration getBatchDelay() {
        return batchDelay;
    }

    public void setBatchDelay(Duration batchDelay) {
        this.batchDelay = SettingChecks.positive(PREFIX + ".batch-delay", batchDelay);
    }

    /**
     * {@code max-values-bytes}: the values a record stands in for (its long paths and names, the whole record of a
     * reduced line) are kept beside it in the index, so any replica can replay it, up to this many UTF-8 bytes; a
     * record needing more is indexed without them (it is replayed from the log files). Default 256 KiB.
     */
    public int getMaxValuesBytes() {
        return maxValuesBytes;
    }

    public void setMaxValuesBytes(int maxValuesBytes) {
        this.maxValuesBytes = SettingChecks.positive(PREFIX + ".max-values-bytes", maxValuesBytes);
    }

    /**
     * {@code handoff-max-records}: the decision log's writer hands the feed each record it writes (its line and what
     * the index lists of it), so the feed need not read the file back; at most this many wait for the feed. Beyond
     * it, or beyond {@code handoff-max-bytes}, a write's records are not kept and the feed reads them from the file
     * (a backlog after the store was down, a burst faster than the index takes it). Default 4,096.
     */
    public int getHandoffMaxRecords() {
        return handoffMaxRecords;
    }

    public void setHandoffMaxRecords(int handoffMaxRecords) {
        this.handoffMaxRecords = SettingChecks.positive(PREFIX + ".handoff-max-records", handoffMaxRecords);
    }

    /**
     * {@code handoff-max-bytes}: the lines of the records handed to the feed and waiting for it, in bytes, at most
     * (see {@code handoff-max-records}). Default 8 MiB.
     */
    public long getHandoffMaxBytes() {
        return handoffMaxBytes;
    }

    public void setHandoffMaxBytes(long handoffMaxBytes) {
        this.handoffMaxBytes = SettingChecks.positive(PREFIX + ".handoff-max-bytes", handoffMaxBytes);
    }

    /** {@code sweep-interval}: how often this replica deletes what is past retention or max-records. Default 1 min. */
    public Duration getSweepInterval() {
        return sweepInterval;
    }

    public void setSweepInterval(Duration sweepInterval) {
        this.sweepInterval = SettingChecks.positive(PREFIX + ".sweep-interval", sweepInterval);
    }

    /** {@code min-backoff}: the wait after the index could not be written, doubled per failure. Default 1 s. */
    public Duration getMinBackoff() {
        return minBackoff;
    }

    public void setMinBackoff(Duration minBackoff) {
        this.minBackoff = SettingChecks.positive(PREFIX + ".min-backoff", minBackoff);
    }

    /** {@code max-backoff}: the longest wait between tries. Default 60 s. */
    public Duration getMaxBackoff() {
        return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
        this.maxBackoff = SettingChecks.positive(PREFIX + ".max-backoff", maxBackoff);
    }
}
