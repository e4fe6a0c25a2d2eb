package dev.gatehouse.gateway.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which rotated decision-log files are deleted, and saying so when the budget costs records. Run by the writer
 * thread when the log is opened and after each rotation (so an idle log deletes nothing until it writes again).
 *
 * <p>A rotated file (with its values file) is deleted only when
 * <ol>
 * <li>it is past its retention age: rotated at least {@code retention} ago, so its newest record is that old; or</li>
 * <li>it was shipped (a {@link DecisionLogSink} says every record of it was taken), and more than
 *     {@code max-files} rotated files are kept: the oldest shipped files go first; or</li>
 * <li>more than {@code max-files} rotated files are still kept, none of them shipped or expired: the space budget
 *     forces records out. Then the <em>newest</em> rotated files go, one by one, until {@code max-files} are left:
 *     the oldest records are kept, so a flood of calls cannot push out the decisions made before it; the live file
 *     keeps the latest. Each such file is logged at ERROR (file, records, time span) and its records counted in
 *     {@value #EVICTED}. Deciding goes on: calls are never refused because the budget is full.</li>
 * </ol>
 * {@link #status()} is {@link RetentionStatus#degraded()} while {@code max-files} or more kept files are neither
 * shipped nor expired, that is from the moment the next rotation would have to force records out (and after it
 * did) until shipping or age frees the budget again.
 */
final class LogRetention {

    /** Records deleted although neither shipped nor past their retention age. */
    static final String EVICTED = "gatehouse.decision_log.evicted";

    private static final Logger LOG = LoggerFactory.getLogger(LogRetention.class);

    private final Path live;
    private final Duration retention;
    private final int maxFiles;
    private final Clock clock;
    private final List<DecisionLogSink> sinks;
    private final Counter evicted;
    /** First record ids of rotated files, which never change. */
    private final Map<Path, Optional<String>> firstIds = new ConcurrentHashMap<>();
    /** The rotated files kept after the last {@link #apply}, oldest first. */
    private volatile List<Path> kept = List.of();

    LogRetention(Path live, Duration retention, int maxFiles, Clock clock, List<DecisionLogSink> sinks,
            MeterRegistry meters) {
        this.live = live;
        this.retention = retention;
        this.maxFiles = maxFiles;
        this.clock = clock;
        this.sinks = List.copyOf(sinks);
        this.evicted = Counter.builder(EVICTED).baseUnit("records")
                .description("decision-log records deleted to stay within max-files although neither shipped nor"
                        + " past their retention age").register(meters);
    }

    /** Deletes what the rules above allow or force; failures to list or delete are logged and tried next time. */
    void apply() {
        List<Path> rotated;
        try {
            rotated = LogFiles.rotated(live);
        } catch (IOException e) {
            LOG.warn("Decision log {}: rotated files cannot be listed: {}", live, e.toString());
            return;
        }
        Instant now = clock.instant();
        List<Path> keep = new ArrayList<>();
        for (Path file : rotated) {
            if (expired(file, now)) {
                delete(file, "it is past its retention age of " + retention);
            } else {
                keep.add(file);
            }
        }
        for (int i = 0; i < keep.size() && keep.size() > maxFiles; ) {
            if (shipped(keep.get(i)) && delete(keep.get(i), "it was shipped")) {
                keep.remove(i);
            } else {
                i++;
            }
        }
        for (int i = keep.size() - 1; i >= 0 && keep.size() > maxFiles; i--) {
            evict(keep.get(i));
            keep.remove(i);
        }
        firstIds.keySet().retainAll(keep);
        kept = List.copyOf(keep);
        RetentionStatus status = status();
        if (status.degraded()) {
            LOG.warn("Decision log {}: {} of the {} rotated files kept are neither shipped nor older than {}; the"
                    + " next rotation deletes records that are neither (max-files {})", live,
                    status.mustKeepFiles(), status.keptFiles(), retention, maxFiles);
        }
    }

    /** The state of the budget now (reads no file). */
    RetentionStatus status() {
        List<Path> files = kept;
        Instant now = clock.instant();
        int mustKeep = 0;
        for (Path file : files) {
            if (!expired(file, now) && !shipped(file)) {
                mustKeep++;
            }
        }
        return new RetentionStatus(mustKeep >= maxFiles, files.size(), mustKeep, maxFiles, (long) evicted.count());
    }

    private boolean expired(Path file, Instant now) {
        return !LogFiles.rotatedAt(live, file).plus(retention).isAfter(now);
    }

    private boolean shipped(Path file) {
        Optional<String> firstId = firstIds.computeIfAbsent(file, LogFiles::firstId);
        return firstId.isPresent() && sinks.stream().anyMatch(sink -> sink.shipped(file, firstId.get()));
    }

    /** Deletes a file the budget forces out, loudly. */
    private void evict(Path file) {
        Optional<String> first = LogFiles.firstRecord(file).map(record -> record.path("timestamp").asText());
        long records = lines(file);
        if (delete(file, "the space budget forced it out")) {
            evicted.increment(records);
            LOG.error("Decision log {}: deleted {} holding {} records from {} until its rotation at {}, neither"
                    + " shipped nor older than the retention age {}, to keep within max-files {} (raise max-files or"
                    + " max-file-bytes, or ship the log); decisions go on being logged", live, file.getFileName(),
                    records, first.orElse("?"), LogFiles.rotatedAt(live, file), retention, maxFiles);
        }
    }

    private boolean delete(Path file, String why) {
        try {
            Files.deleteIfExists(LogFiles.valuesFile(file));
            Files.deleteIfExists(file);
            LOG.info("Decision log {}: deleted {} because {}", live, file.getFileName(), why);
            return true;
        } catch (IOException e) {
            LOG.warn("Decision log {}: {} could not be deleted ({}): {}", live, file.getFileName(), why,
                    e.toString());
            return false;
        }
    }

    private static long lines(Path file) {
        long lines = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            byte[] chunk = new byte[1 << 16];
            for (int read; (read = in.read(chunk)) > 0; ) {
                for (int i = 0; i < read; i++) {
                    lines += chunk[i] == '\n' ? 1 : 0;
                }
            }
        } catch (IOException e) {
            LOG.warn("Decision log {}: records of {} cannot be counted: {}", file.getParent(), file.getFileName(),
                    e.toString());
        }
        return lines;
    }
}
