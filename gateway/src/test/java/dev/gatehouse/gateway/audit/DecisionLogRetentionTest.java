package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.configuration;
import static dev.gatehouse.gateway.audit.AuditFixtures.ids;
import static dev.gatehouse.gateway.audit.AuditFixtures.longPath;
import static dev.gatehouse.gateway.audit.AuditFixtures.read;
import static dev.gatehouse.gateway.audit.AuditFixtures.readAll;
import static dev.gatehouse.gateway.audit.AuditFixtures.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.gatehouse.gateway.audit.AuditFixtures.SettableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A rotated file goes only when shipped or past its retention age; when the space budget ({@code max-files})
 * forces out records that are neither, the newest rotated file goes, the earliest records stay, and the gateway
 * says so: an ERROR line, the {@value LogRetention#EVICTED} counter and a degraded status. Time is an injected clock.
 */
class DecisionLogRetentionTest {

    private static final Instant T0 = Instant.parse("2026-12-01T09:30:00Z");

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger retentionLogger = (Logger) LoggerFactory.getLogger(LogRetention.class);

    @BeforeEach
    void capture() {
        logged.start();
        retentionLogger.addAppender(logged);
    }

    @AfterEach
    void release() {
        retentionLogger.detachAppender(logged);
    }

    /** Says a file was shipped when its first record is one the test names. */
    private static final class Shipped implements DecisionLogSink {
        final Set<String> firstIds = ConcurrentHashMap.newKeySet();

        @Override
        public void written(String firstId, long liveBytes) {
        }

        @Override
        public void rotated(String firstId, Path rotated) {
        }

        @Override
        public boolean shipped(Path rotated, String firstId) {
            return firstIds.contains(firstId);
        }
    }

    private DecisionLog log(DecisionLogConfiguration configuration, SettableClock clock, DecisionLogSink... sinks) {
        return new DecisionLog(configuration, clock, UnaryOperator.identity(), List.of(sinks), meters);
    }

    private double evicted() {
        return meters.find(LogRetention.EVICTED).counter().count();
    }

    private List<ILoggingEvent> errors() {
        return logged.list.stream().filter(e -> e.getLevel() == Level.ERROR).toList();
    }

    /**
     * A flood of allowed reads with a 7 KB path through a deliberately tiny budget (3 files of 64 KiB): the decisions
     * made before the flood stay, the newest rotated files go, and each such deletion is logged at ERROR and counted
     * record by record; the status is degraded.
     */
    @Test
    void aTinyBudgetKeepsTheEarliestRecordsAndSaysSoWhenItDeletesOthers() throws Exception {
        DecisionLogConfiguration configuration = configuration(dir.resolve("decisions.jsonl"));
        configuration.setMaxFileBytes(64 * 1024);
        configuration.setMaxFiles(3);
        DecisionLog log = log(configuration, new SettableClock(T0));
        List<String> earlier = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            DecisionRecord record = record(10);
            assertInstanceOf(LogResult.Written.class, log.record(record));
            earlier.add(record.decisionId().toString());
        }
        assertFalse(log.retention().degraded());
        int flood = 600;
        for (int i = 0; i < flood; i++) {
            assertInstanceOf(LogResult.Written.class, log.record(read(longPath())), "deciding goes on");
        }
        log.close();

        List<String> kept = ids(readAll(log.files()));
        assertEquals(earlier, kept.subList(0, earlier.size()), "the decisions before the flood are all kept");
        assertEquals(4, log.files().size(), "3 rotated files and the live one");
        long lost = earlier.size() + flood - kept.size();
        assertTrue(lost > 0, "the budget is too small for the flood");
        assertEquals(lost, evicted(), "every deleted record is counted");
        assertFalse(errors().isEmpty(), "the deletions are logged at ERROR");
        for (ILoggingEvent error : errors()) {
            assertTrue(error.getFormattedMessage().contains("shipped nor older than the retention age"),
                    error.getFormattedMessage());
        }
        RetentionStatus status = log.retention();
        assertTrue(status.degraded());
        assertEquals(3, status.mustKeepFiles());
        assertEquals(lost, status.evicted());
    }

    /** Files past their retention age go at the next rotation, quietly, and free the budget. */
    @Test
    void filesPastTheirRetentionAgeGoAndFreeTheBudget() throws Exception {
        SettableClock clock = new SettableClock(T0);
        DecisionLogConfiguration configuration = configuration(dir.resolve("decisions.jsonl"));
        configuration.setMaxFileBytes(1); // every record a file of its own
        configuration.setMaxFiles(3);
        configuration.setRetention(Duration.ofHours(1));
        DecisionLog log = log(configuration, clock);
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            DecisionRecord record = record(10);
            log.record(record);
            written.add(record.decisionId().toString());
        }
        assertEquals(4, log.files().size());
        assertTrue(log.retention().degraded(), "3 files that must be kept: the next rotation would delete one");

        clock.advance(Duration.ofMinutes(59));
        assertTrue(log.retention().degraded(), "59 minutes: not yet past the retention age");
        clock.advance(Duration.ofMinutes(1));
        assertFalse(log.retention().degraded(), "past the retention age, the files may go");
        DecisionRecord later = record(10);
        log.record(later);
        written.add(later.decisionId().toString());
        log.close();

        assertEquals(written.subList(3, 5), ids(readAll(log.files())), "the expired files went at the rotation");
        assertEquals(0, evicted());
        assertEquals(List.of(), errors());
        assertFalse(log.retention().degraded());
    }

    /** Shipped files go first when the budget is full, and a budget full of shipped files is not degraded. */
    @Test
    void shippedFilesGoFirstAndDoNotCountAgainstTheBudget() throws Exception {
        Shipped shipped = new Shipped();
        DecisionLogConfiguration configuration = configuration(dir.resolve("decisions.jsonl"));
        configuration.setMaxFileBytes(1);
        configuration.setMaxFiles(2);
        DecisionLog log = log(configuration, new SettableClock(T0), shipped);
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            DecisionRecord record = record(10);
            log.record(record);
            written.add(record.decisionId().toString());
        }
        assertTrue(log.retention().degraded());
        shipped.firstIds.add(written.get(0));
        assertFalse(log.retention().degraded(), "one of the two is shipped: the next rotation deletes it");

        DecisionRecord fourth = record(10);
        log.record(fourth);
        written.add(fourth.decisionId().toString());
        assertEquals(written.subList(1, 4), ids(readAll(log.files())), "the shipped file went, none other");
        assertEquals(0, evicted());
        assertTrue(log.retention().degraded());

        shipped.firstIds.addAll(written);
        assertFalse(log.retention().degraded());
        DecisionRecord fifth = record(10);
        log.record(fifth);
        log.close();
        assertEquals(List.of(written.get(2), written.get(3), fifth.decisionId().toString()),
                ids(readAll(log.files())));
        assertEquals(0, evicted());
        assertEquals(List.of(), errors());
    }

    /** A restart with a smaller budget applies it at once, with the same warning. */
    @Test
    void aSmallerBudgetAtStartIsAppliedAndSaidSo() throws Exception {
        DecisionLogConfiguration roomy = configuration(dir.resolve("decisions.jsonl"));
        roomy.setMaxFileBytes(1);
        roomy.setMaxFiles(10);
        DecisionLog first = log(roomy, new SettableClock(T0));
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            DecisionRecord record = record(10);
            first.record(record);
            written.add(record.decisionId().toString());
        }
        first.close();

        DecisionLogConfiguration tight = configuration(dir.resolve("decisions.jsonl"));
        tight.setMaxFiles(2);
        DecisionLog second = log(tight, new SettableClock(T0));
        second.close();
        assertEquals(List.of(written.get(0), written.get(1), written.get(5)), ids(readAll(second.files())));
        assertEquals(3, evicted());
        assertEquals(3, errors().size());
        assertTrue(Files.exists(dir.resolve("decisions.jsonl")));
    }
}
