package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.configuration;
import static dev.gatehouse.gateway.audit.AuditFixtures.ids;
import static dev.gatehouse.gateway.audit.AuditFixtures.readAll;
import static dev.gatehouse.gateway.audit.AuditFixtures.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.audit.AuditFixtures.FailHalfway;
import dev.gatehouse.facts.PolicyJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every line in every file is a whole record, whatever happens to a write. */
@Timeout(180)
class DecisionLogCrashTest {

    private static final String WRITTEN = "WRITTEN";

    @TempDir
    Path dir;

    @Test
    void aWriteThatFailsHalfwayIsCutBackAndDenied() throws Exception {
        DecisionLog log = new DecisionLog(configuration(dir.resolve("decisions.jsonl")), Clock.systemUTC(),
                new FailHalfway(2));
        DecisionRecord before = record(10);
        assertInstanceOf(LogResult.Written.class, log.record(before));

        LogResult.NotWritten failed = assertInstanceOf(LogResult.NotWritten.class, log.record(record(10)));
        assertTrue(failed.detail().contains("No space left on device"), failed.detail());
        String afterFailure = Files.readString(log.file());
        assertTrue(afterFailure.endsWith("\n"), "the half line is cut at once: " + afterFailure);

        DecisionRecord after = record(10);
        assertInstanceOf(LogResult.Written.class, log.record(after), "the next call reopens the file");
        log.close();
        assertEquals(List.of(before.decisionId().toString(), after.decisionId().toString()),
                ids(readAll(log.files())));
    }

    @Test
    void aPartialLastLineIsCutWhenTheFileIsOpened() throws Exception {
        Path file = dir.resolve("decisions.jsonl");
        DecisionLog first = new DecisionLog(configuration(file), Clock.systemUTC(), UnaryOperator.identity());
        DecisionRecord whole = record(10);
        first.record(whole);
        first.close();
        Files.writeString(file, "{\"decision_id\":\"torn", StandardOpenOption.APPEND); // a crash mid-line

        DecisionLog reopened = new DecisionLog(configuration(file), Clock.systemUTC(), UnaryOperator.identity());
        DecisionRecord next = record(10);
        assertInstanceOf(LogResult.Written.class, reopened.record(next));
        reopened.close();
        assertEquals(List.of(whole.decisionId().toString(), next.decisionId().toString()), ids(readAll(List.of(file))));
    }

    /**
     * A gateway process SIGKILLed while 4 threads log as fast as they can, rotating every 32 KiB: every line it
     * reported written is still there, every line is a whole record (a partial trailing line, if the kill landed
     * inside a write, is cut on reopen), and a restarted log carries on.
     */
    @Test
    void aGatewayKilledWhileLoggingLeavesOnlyWholeLines() throws Exception {
        Path file = dir.resolve("decisions.jsonl");
        Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LoggingForever.class.getName(), file.toString())
                .redirectErrorStream(true)
                .start();
        long reported = 0;
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(WRITTEN)) {
                    reported = Long.parseLong(line.substring(WRITTEN.length() + 1));
                    if (reported >= 2000) {
                        break;
                    }
                }
            }
            assertTrue(reported >= 2000, "the writer stopped early");
            writer.destroyForcibly(); // SIGKILL: no shutdown hook, no @PreDestroy
            assertTrue(writer.waitFor(30, TimeUnit.SECONDS));
        }

        List<Path> files = LogFiles.files(file);
        assertTrue(files.size() > 2, "the log rotated: " + files);
        int torn = 0;
        for (int f = 0; f < files.size(); f++) {
            String text = Files.readString(files.get(f));
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length - 1; i++) {
                PolicyJson.MAPPER.readTree(lines[i]); // throws on a torn line
            }
            if (!lines[lines.length - 1].isEmpty()) {
                assertEquals(files.size() - 1, f, "only the live file can end mid-line");
                torn++;
            }
        }
        System.out.printf("killed after %d reported writes: %d files, %d torn trailing line%n", reported,
                files.size(), torn);

        DecisionLogConfiguration same = configuration(file);
        same.setMaxFiles(1000);
        DecisionLog restarted = new DecisionLog(same, Clock.systemUTC(), UnaryOperator.identity());
        DecisionRecord next = record(10);
        assertInstanceOf(LogResult.Written.class, restarted.record(next));
        restarted.close();
        List<JsonNode> all = readAll(restarted.files());
        assertTrue(all.size() > reported, all.size() + " lines, " + reported + " reported written");
        assertEquals(next.decisionId().toString(), all.get(all.size() - 1).get("decision_id").asText());
    }

    /** The process that gets killed: 4 threads record until killed, printing the running count of Written. */
    public static final class LoggingForever {

        public static void main(String[] args) throws Exception {
            DecisionLogConfiguration configuration = configuration(Path.of(args[0]));
            configuration.setMaxFileBytes(32 * 1024);
            configuration.setMaxFiles(1000);
            DecisionLog log = new DecisionLog(configuration);
            AtomicLong written = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Runnable> loops = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                loops.add(() -> {
                    while (true) {
                        if (log.record(record(3000)) instanceof LogResult.Written) {
                            long n = written.incrementAndGet();
                            if (n % 100 == 0) {
                                synchronized (System.out) {
                                    System.out.println(WRITTEN + " " + n);
                                    System.out.flush();
                                }
                            }
                        }
                    }
                });
            }
            loops.forEach(pool::submit);
            pool.awaitTermination(10, TimeUnit.MINUTES);
        }
    }
}
