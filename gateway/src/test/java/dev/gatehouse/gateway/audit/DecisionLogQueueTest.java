package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.configuration;
import static dev.gatehouse.gateway.audit.AuditFixtures.ids;
import static dev.gatehouse.gateway.audit.AuditFixtures.readAll;
import static dev.gatehouse.gateway.audit.AuditFixtures.record;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.audit.AuditFixtures.Counting;
import dev.gatehouse.gateway.audit.AuditFixtures.HoldFirst;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer thread and its bounded queue: calls share writes, a full queue or a stuck disk denies instead of
 * blocking, and shutdown writes what is queued. No assertion depends on timing: each step waits for the effect it
 * needs (a record held or queued); {@link Timeout} only guards against a hang.
 */
@Timeout(120)
class DecisionLogQueueTest {

    @TempDir
    Path dir;

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void concurrentCallersShareWrites() throws Exception {
        int threads = 16;
        int perThread = 200;
        HoldFirst held = new HoldFirst();
        DecisionLog log = new DecisionLog(configuration(dir.resolve("decisions.jsonl")), Clock.systemUTC(), held);
        // the first write waits until every other caller is queued behind it, so some batch holds 2 or more
        List<Future<List<LogResult>>> results = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            results.add(pool.submit(() -> {
                start.await();
                List<LogResult> mine = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    mine.add(log.record(record(100)));
                }
                return mine;
            }));
        }
        start.countDown();
        held.entered.await();
        await("every caller's first record held or queued")
                .until(() -> held.heldLines + log.queued() >= threads);
        held.release.countDown();
        for (Future<List<LogResult>> result : results) {
            for (LogResult one : result.get()) {
                assertInstanceOf(LogResult.Written.class, one);
            }
        }
        log.close();

        List<String> ids = ids(readAll(log.files()));
        int records = threads * perThread;
        assertEquals(records, ids.size());
        assertEquals(records, new HashSet<>(ids).size(), "every record exactly once");
        int writes = held.writes.get();
        System.out.printf("group commit: %d records from %d threads in %d writes (%.1f records/write)%n", records,
                threads, writes, (double) records / writes);
        assertTrue(writes < records, writes + " writes for " + records + " records");
    }

    @Test
    void aFullQueueIsRefusedAtOnceAndTheLogRecovers() throws Exception {
        DecisionLogConfiguration configuration = configuration(dir.resolve("decisions.jsonl"));
        configuration.setQueueCapacity(4);
        configuration.setWriteTimeout(Duration.ofMinutes(5)); // a wait would hang the test, not pass it
        HoldFirst held = new HoldFirst();
        DecisionLog log = new DecisionLog(configuration, Clock.systemUTC(), held);

        List<DecisionRecord> waiting = new ArrayList<>();
        List<Future<LogResult>> results = new ArrayList<>();
        DecisionRecord inWrite = record(10);
        waiting.add(inWrite);
        results.add(pool.submit(() -> log.record(inWrite)));
        held.entered.await(); // the writer is stuck in the OS with the first record
        for (int i = 0; i < 4; i++) {
            DecisionRecord queued = record(10);
            waiting.add(queued);
            results.add(pool.submit(() -> log.record(queued)));
        }
        await("four records queued behind the stuck write").until(() -> log.queued() >= 4);

        DecisionRecord refused = record(10);
        LogResult full = log.record(refused); // returns without waiting: the test would time out otherwise
        assertEquals(new LogResult.NotWritten("decision log queue full"), full);

        held.release.countDown();
        for (Future<LogResult> result : results) {
            assertInstanceOf(LogResult.Written.class, result.get());
        }
        DecisionRecord after = record(10);
        assertInstanceOf(LogResult.Written.class, log.record(after));
        log.close();

        List<String> expected = new ArrayList<>(waiting.stream().map(r -> r.decisionId().toString()).toList());
        expected.add(after.decisionId().toString());
        List<String> logged = ids(readAll(log.files()));
        assertEquals(Set.copyOf(expected), Set.copyOf(logged));
        assertEquals(expected.size(), logged.size(), "the refused record is not in the log");
    }

    @Test
    void aRecordNotWrittenInTimeIsDeniedAndAQueuedOneWithdrawn() throws Exception {
        DecisionLogConfiguration configuration = configuration(dir.resolve("decisions.jsonl"));
        configuration.setWriteTimeout(Duration.ofMillis(200));
        HoldFirst held = new HoldFirst();
        DecisionLog log = new DecisionLog(configuration, Clock.systemUTC(), held);

        DecisionRecord stuck = record(10);
        Future<LogResult> stuckResult = pool.submit(() -> log.record(stuck));
        held.entered.await();
        DecisionRecord queued = record(10);
        LogResult.NotWritten withdrawn = assertInstanceOf(LogResult.NotWritten.class, log.record(queued));
        assertTrue(withdrawn.detail().contains("withdrawn"), withdrawn.detail());
        LogResult.NotWritten taken = assertInstanceOf(LogResult.NotWritten.class, stuckResult.get());
        assertTrue(taken.detail().contains("may still be written"), taken.detail());

        held.release.countDown();
        DecisionRecord after = record(10);
        assertInstanceOf(LogResult.Written.class, log.record(after));
        log.close();

        assertEquals(List.of(stuck.decisionId().toString(), after.decisionId().toString()),
                ids(readAll(log.files())), "the withdrawn record never reaches the file");
    }

    @Test
    void closeWritesEverythingQueuedThenRefuses() throws Exception {
        HoldFirst held = new HoldFirst();
        DecisionLog log = new DecisionLog(configuration(dir.resolve("decisions.jsonl")), Clock.systemUTC(), held);
        List<Future<LogResult>> results = new ArrayList<>();
        results.add(pool.submit(() -> log.record(record(10))));
        held.entered.await();
        for (int i = 0; i < 3; i++) {
            results.add(pool.submit(() -> log.record(record(10))));
        }
        await("three records queued behind the stuck write").until(() -> log.queued() >= 3);
        pool.submit(() -> {
            await("shutdown has begun").until(log::closing);
            held.release.countDown(); // the disk answers only once shutdown has begun
            return null;
        });

        log.close();

        for (Future<LogResult> result : results) {
            assertInstanceOf(LogResult.Written.class, result.get());
        }
        assertEquals(4, readAll(log.files()).size());
        LogResult.NotWritten late = assertInstanceOf(LogResult.NotWritten.class, log.record(record(10)));
        assertTrue(late.detail().endsWith("is closed"), late.detail());
    }

    @Test
    void countingWrapperSeesOneWritePerSequentialRecord() throws Exception {
        Counting counting = new Counting();
        DecisionLog log = new DecisionLog(configuration(dir.resolve("decisions.jsonl")), Clock.systemUTC(), counting);
        for (int i = 0; i < 10; i++) {
            assertInstanceOf(LogResult.Written.class, log.record(record(10)));
        }
        log.close();
        assertEquals(10, counting.writes.get(), "a lone caller is not delayed to wait for company");
    }
}
