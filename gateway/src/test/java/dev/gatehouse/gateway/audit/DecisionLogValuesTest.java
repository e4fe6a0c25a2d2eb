package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.configuration;
import static dev.gatehouse.gateway.audit.AuditFixtures.longPath;
import static dev.gatehouse.gateway.audit.AuditFixtures.read;
import static dev.gatehouse.gateway.audit.AuditFixtures.readAll;
import static dev.gatehouse.gateway.support.LoggedRecords.restore;
import static dev.gatehouse.gateway.support.LoggedRecords.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.audit.AuditFixtures.FailHalfway;
import dev.gatehouse.gateway.audit.AuditFixtures.Wrapper;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.review.StandIns;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The values file beside each log file: a value is written once per file and before any line that needs it, moves
 * with its file at rotation, survives a restart without being written again, is cut back with a failed write, and
 * one left behind by a crash between the two renames of a rotation finds its file again.
 */
class DecisionLogValuesTest {

    @TempDir
    Path dir;

    private Path live() {
        return dir.resolve("decisions.jsonl");
    }

    private static long lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    /** The evaluated input and result of every record of {@code files}, put back from their values files. */
    private static void assertEveryRecordComesBack(List<Path> files, List<DecisionRecord> written) throws IOException {
        List<JsonNode> logged = readAll(files);
        Map<String, JsonNode> values = values(files);
        assertEquals(written.size(), logged.size());
        for (int i = 0; i < logged.size(); i++) {
            JsonNode restored = restore(logged.get(i), values);
            assertEquals(DecisionInputMapper.forCall(written.get(i).input()), restored.get("input"));
            assertEquals("agents/a1/" + longPath(), restored.at("/result/obligations/wikiPaths/path").asText());
        }
    }

    /** Remembers whether each write went to the values file or the log file, by what it starts with. */
    private static final class Order extends Wrapper {
        final List<String> writes = Collections.synchronizedList(new ArrayList<>());

        @Override
        int write(WritableByteChannel delegate, ByteBuffer source, int n) throws IOException {
            writes.add(source.get(source.position() + 2) == 's' ? "values" : "lines");
            return delegate.write(source);
        }
    }

    @Test
    void eachValueIsWrittenOnceAndBeforeTheLinesThatNeedIt() throws Exception {
        Order order = new Order();
        DecisionLog log = new DecisionLog(configuration(live()), Clock.systemUTC(), order);
        List<DecisionRecord> written = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            DecisionRecord record = read(longPath());
            assertInstanceOf(LogResult.Written.class, log.record(record));
            written.add(record);
        }
        log.close();

        assertEquals(50, lines(live()));
        assertEquals(3, lines(LogFiles.valuesFile(live())), "the path, the resolved path, the unicode facts");
        assertEquals("values", order.writes.get(0));
        assertEquals("lines", order.writes.get(1));
        assertEquals(1, Collections.frequency(order.writes, "values"), "once, however many records need them");
        assertEveryRecordComesBack(List.of(live()), written);
        String text = Files.readString(live());
        assertFalse(text.contains(longPath().substring(0, 300)), "no record holds the path");
        System.out.printf("a read of a %d-byte path: a %d-byte record (values: %d bytes, once per file)%n",
                longPath().getBytes(StandardCharsets.UTF_8).length, Files.readAllLines(live()).get(0)
                        .getBytes(StandardCharsets.UTF_8).length + 1, Files.size(LogFiles.valuesFile(live())));
    }

    @Test
    void valuesMoveWithTheirFileAndAreWrittenAgainInTheNext() throws Exception {
        DecisionLogConfiguration configuration = configuration(live());
        configuration.setMaxFileBytes(40 * 1024); // the values (about 22 KB) and a few records per file
        configuration.setMaxFiles(100);
        DecisionLog log = new DecisionLog(configuration);
        List<DecisionRecord> written = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            DecisionRecord record = read(longPath());
            assertInstanceOf(LogResult.Written.class, log.record(record));
            written.add(record);
        }
        log.close();

        List<Path> files = log.files();
        assertTrue(files.size() > 3, files.toString());
        int from = 0;
        for (Path file : files) {
            assertEquals(3, lines(LogFiles.valuesFile(file)), file + ": its own values, once");
            assertTrue(Files.size(file) + Files.size(LogFiles.valuesFile(file)) <= 40 * 1024, file.toString());
            int records = (int) lines(file);
            assertEveryRecordComesBack(List.of(file), written.subList(from, from + records));
            from += records;
        }
        assertEquals(written.size(), from);
    }

    @Test
    void aRestartedLogDoesNotWriteAValueAgain() throws Exception {
        List<DecisionRecord> written = new ArrayList<>(List.of(read(longPath())));
        DecisionLog first = new DecisionLog(configuration(live()));
        first.record(written.get(0));
        first.close();
        Files.writeString(LogFiles.valuesFile(live()), "{\"sha256\":\"torn", StandardOpenOption.APPEND);

        DecisionLog second = new DecisionLog(configuration(live()));
        written.add(read(longPath()));
        assertInstanceOf(LogResult.Written.class, second.record(written.get(1)));
        second.close();

        assertEquals(3, lines(LogFiles.valuesFile(live())), "the torn line cut, nothing written twice");
        assertTrue(Files.readString(LogFiles.valuesFile(live())).endsWith("\n"));
        assertEveryRecordComesBack(List.of(live()), written);
    }

    /** A disk that fills up while writing the values: neither the values nor the line stay; the next call works. */
    @Test
    void aFailedValuesWriteCutsBackBothFiles() throws Exception {
        DecisionLog log = new DecisionLog(configuration(live()), Clock.systemUTC(), new FailHalfway(1));
        LogResult failed = log.record(read(longPath()));
        assertInstanceOf(LogResult.NotWritten.class, failed);
        assertEquals(0, Files.size(live()));
        assertEquals(0, Files.size(LogFiles.valuesFile(live())), "the half-written values are cut back");

        DecisionRecord next = read(longPath());
        assertInstanceOf(LogResult.Written.class, log.record(next));
        log.close();
        assertEquals(3, lines(LogFiles.valuesFile(live())));
        assertEveryRecordComesBack(List.of(live()), List.of(next));
    }

    /** A crash after the log file was renamed and before its values file was: the values find their file. */
    @Test
    void valuesLeftBehindByAnInterruptedRotationFindTheirFile() throws Exception {
        DecisionRecord record = read(longPath());
        DecisionLog log = new DecisionLog(configuration(live()), Clock.systemUTC(), UnaryOperator.identity());
        log.record(record);
        log.close();
        Path rotated = dir.resolve("decisions-20261201T093000Z-0001.jsonl");
        Files.move(live(), rotated, StandardCopyOption.ATOMIC_MOVE); // the first rename, then the crash

        DecisionLog reopened = new DecisionLog(configuration(live()), Clock.systemUTC(), UnaryOperator.identity());
        DecisionRecord next = read(longPath());
        reopened.record(next);
        reopened.close();

        assertEquals(3, lines(LogFiles.valuesFile(rotated)));
        assertEveryRecordComesBack(List.of(rotated), List.of(record));
        assertEquals(3, lines(LogFiles.valuesFile(live())), "the fresh file has its own values");
        assertEveryRecordComesBack(List.of(live()), List.of(next));
    }

    /**
     * A stored value with a member name longer than Jackson's default cap on names (50,000 characters) reads back,
     * through the gateway's reader (the index, the shipper, the console's replay) and the review library's (the
     * replay CLI): a path segment is a member name of the {@code unicode} fact, and one agent's call with a longer
     * one once stopped the decision index and the replay of every later record.
     */
    @Test
    void aValueWithAMemberNamePastJacksonsDefaultCapReadsBack() throws Exception {
        String segment = "\u00e9".repeat(60_000);
        DecisionLog log = new DecisionLog(configuration(live()));
        DecisionRecord record = read(segment);
        assertInstanceOf(LogResult.Written.class, log.record(record));
        log.close();

        JsonNode logged = readAll(List.of(live())).get(0);
        assertFalse(logged.toString().contains(segment), "the line holds stand-ins only");
        JsonNode restored = restore(logged, values(List.of(live())));
        assertEquals(DecisionInputMapper.forCall(record.input()), restored.get("input"));
        assertEquals(List.of("Ll"), List.of(restored.at("/input/unicode").get(segment).get(0).asText()));
        StandIns standIns = new StandIns();
        standIns.read(LogFiles.valuesFile(live()));
        assertEquals(restored.get("input"), standIns.restore(logged).orElseThrow().get("input"));
    }
}
