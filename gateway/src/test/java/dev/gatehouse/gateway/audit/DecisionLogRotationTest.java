package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.configuration;
import static dev.gatehouse.gateway.audit.AuditFixtures.ids;
import static dev.gatehouse.gateway.audit.AuditFixtures.readAll;
import static dev.gatehouse.gateway.audit.AuditFixtures.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.audit.AuditFixtures.SettableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rotation by size and age, and names whose lexical order is time order. */
class DecisionLogRotationTest {

    private static final Instant T0 = Instant.parse("2026-12-01T09:30:00Z");

    @TempDir
    Path dir;

    @Test
    void sizeRotationKeepsWholeLinesUnderTheLimit() throws Exception {
        DecisionLogConfiguration configuration = configuration(dir.resolve("decisions.jsonl"));
        configuration.setMaxFileBytes(8 * 1024);
        configuration.setMaxFiles(100);
        DecisionLog log = new DecisionLog(configuration, new SettableClock(T0), UnaryOperator.identity());
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            DecisionRecord record = record(i * 10); // lines of about 0.7 to 2.7 KB
            assertInstanceOf(LogResult.Written.class, log.record(record));
            written.add(record.decisionId().toString());
        }
        log.close();

        List<Path> files = log.files();
        assertTrue(files.size() > 4, "rotated: " + files);
        assertEquals(dir.resolve("decisions.jsonl"), files.get(files.size() - 1));
        List<String> names = files.subList(0, files.size() - 1).stream().map(p -> p.getFileName().toString()).toList();
        for (String name : names) {
            assertTrue(name.matches("decisions-20261201T093000Z-\\d{4}\\.jsonl"), name);
        }
        assertEquals(names.stream().sorted().toList(), names);
        for (Path file : files) {
            long size = Files.size(file);
            assertTrue(size <= 8 * 1024, file + " has " + size + " bytes");
            assertTrue(Files.readString(file).endsWith("\n"), file + " ends in a whole line");
        }
        assertEquals(written, ids(readAll(files)), "every record once, in order");
    }

    /**
     * Every file the log creates, live and rotated, records and values, is {@code rw-r-----}: the records hold what
     * callers sent (a new user's trial found them world-readable). A file that was there keeps its mode.
     */
    @Test
    void newLogFilesAreReadableByTheirOwnerAndGroupOnly() throws Exception {
        Path live = dir.resolve("decisions.jsonl");
        Files.writeString(live, "");
        Files.setPosixFilePermissions(live, PosixFilePermissions.fromString("rw-rw-r--"));
        DecisionLogConfiguration configuration = configuration(live);
        configuration.setMaxFileBytes(8 * 1024);
        configuration.setMaxFiles(100);
        configuration.setMaxArgumentBytes(64); // long values go to the values files
        DecisionLog log = new DecisionLog(configuration, new SettableClock(T0), UnaryOperator.identity());
        for (int i = 0; i < 40; i++) {
            assertInstanceOf(LogResult.Written.class, log.record(record(100 + i * 10)));
        }
        log.close();
        Path there = log.files().get(0); // the file that was there, rotated first
        List<Path> created;
        try (var files = Files.list(dir)) {
            created = files.filter(f -> !f.equals(there)).toList();
        }
        assertTrue(created.stream().anyMatch(f -> f.getFileName().toString().endsWith(".values.jsonl")), "values: "
                + created);
        assertTrue(created.size() > 4, "rotated: " + created);
        for (Path file : created) {
            assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
                    file.toString());
        }
        assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(there)),
                "the file that was there keeps its mode");
    }

    @Test
    void ageRotationFollowsTheFirstLinesAgeOnTheInjectedClock() throws Exception {
        SettableClock clock = new SettableClock(T0);
        DecisionLogConfiguration configuration = configuration(dir.resolve("decisions.jsonl"));
        configuration.setMaxFileAge(Duration.ofHours(24));
        DecisionLog log = new DecisionLog(configuration, clock, UnaryOperator.identity());

        DecisionRecord first = record(10);
        log.record(first);
        clock.advance(Duration.ofHours(23));
        DecisionRecord second = record(10);
        log.record(second);
        assertEquals(List.of(dir.resolve("decisions.jsonl")), log.files(), "23 h old: not rotated");
        clock.advance(Duration.ofHours(1));
        DecisionRecord third = record(10);
        log.record(third);
        log.close();

        List<Path> files = log.files();
        assertEquals(List.of(dir.resolve("decisions-20261202T093000Z-0001.jsonl"), dir.resolve("decisions.jsonl")),
                files);
        assertEquals(List.of(first.decisionId().toString(), second.decisionId().toString()),
                ids(readAll(List.of(files.get(0)))));
        assertEquals(List.of(third.decisionId().toString()), ids(readAll(List.of(files.get(1)))));
    }

    @Test
    void replayingTheFilesInOrderGivesEveryRecordOnceEvenWhenTheClockStepsBack() throws Exception {
        SettableClock clock = new SettableClock(T0);
        DecisionLogConfiguration configuration = configuration(dir.resolve("decisions.jsonl"));
        configuration.setMaxFileBytes(1); // every line gets a file of its own
        configuration.setMaxFiles(100);
        DecisionLog log = new DecisionLog(configuration, clock, UnaryOperator.identity());
        List<String> written = new ArrayList<>();
        Instant[] times = {T0, T0, T0.plusSeconds(5), T0.minusSeconds(3600), T0.minusSeconds(3600), T0};
        for (Instant time : times) {
            clock.set(time);
            DecisionRecord record = record(10);
            assertInstanceOf(LogResult.Written.class, log.record(record));
            written.add(record.decisionId().toString());
        }
        log.close();

        List<Path> files = log.files();
        assertEquals(times.length, files.size());
        assertEquals(List.of("decisions-20261201T093000Z-0001.jsonl", "decisions-20261201T093005Z-0001.jsonl",
                "decisions-20261201T093005Z-0002.jsonl", "decisions-20261201T093005Z-0003.jsonl",
                "decisions-20261201T093005Z-0004.jsonl", "decisions.jsonl"),
                files.stream().map(p -> p.getFileName().toString()).toList());
        assertEquals(written, ids(readAll(files)));

        DecisionLog reopened = new DecisionLog(configuration, clock, UnaryOperator.identity());
        DecisionRecord more = record(10);
        reopened.record(more);
        reopened.close();
        written.add(more.decisionId().toString());
        assertEquals(written, ids(readAll(reopened.files())), "a restarted gateway carries on after the last file");
    }
}
