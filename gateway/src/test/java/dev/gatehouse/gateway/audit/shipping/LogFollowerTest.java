package dev.gatehouse.gateway.audit.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the follower's thread is woken while a batch of the live file fills: the writer reports every write, but only
 * a report after which the live file may hold a full batch wakes the thread; the reports before it leave the thread
 * waiting (it does not read the waiting records again per write). Waits here are an hour, so nothing in the test
 * moves by time: the thread only moves when a report wakes it.
 */
class LogFollowerTest {

    private static final String FOLLOWER = "test-log-follower";
    private static final int BATCH = 10;

    /** One record line, all of the same length, so ten of them are exactly a full batch's estimate. */
    private static String line(int n) {
        return "{\"decision_id\":\"id-" + String.format("%04d", n) + "\",\"padding\":\"" + "x".repeat(100) + "\"}\n";
    }

    private static Thread thread() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(FOLLOWER)).findFirst()
                .orElseThrow();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 30 s for " + what);
            Thread.sleep(5);
        }
    }

    @Test
    void whileABatchFillsOnlyAReportThatMayFillItWakesTheThread(@TempDir Path dir) throws Exception {
        Path live = dir.resolve("decisions.jsonl").toAbsolutePath();
        Files.createFile(live);
        AtomicInteger rounds = new AtomicInteger();
        AtomicInteger roundOfTake = new AtomicInteger();
        List<LogTail.Chunk> taken = new CopyOnWriteArrayList<>();
        AtomicReference<ShipCursor> cursor = new AtomicReference<>(ShipCursor.START);
        AtomicReference<LogFollower> follower = new AtomicReference<>();
        Runnable body = () -> {
            while (!follower.get().closed()) {
                rounds.incrementAndGet();
                try {
                    follower.get().round(Optional.of(live), cursor.get(), () -> { }, done -> false, (file, chunk) -> {
                        roundOfTake.set(rounds.get());
                        taken.add(chunk);
                        cursor.set(new ShipCursor(file.getFileName().toString(), chunk.firstId(), chunk.to()));
                    });
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        };
        long hour = TimeUnit.HOURS.toNanos(1);
        follower.set(new LogFollower(live, FOLLOWER, body, hour, () -> BATCH, () -> Duration.ofHours(1)));
        follower.get().start();
        try {
            await("the first look, at an empty log", () -> rounds.get() == 1
                    && thread().getState() == Thread.State.TIMED_WAITING);

            long size = append(live, 1);
            follower.get().written("id-0001", size);
            await("the batch of one record to wait to fill", () -> rounds.get() == 2
                    && thread().getState() == Thread.State.TIMED_WAITING);

            for (int n = 2; n < BATCH; n++) {
                follower.get().written("id-0001", append(live, n));
            }
            assertEquals(2, rounds.get(), "reports before the batch may be full leave the thread waiting");
            assertEquals(Thread.State.TIMED_WAITING, thread().getState());
            assertEquals(List.of(), taken);

            follower.get().written("id-0001", append(live, BATCH));
            await("the full batch to be taken", () -> taken.size() == 1);
            assertEquals(BATCH, taken.get(0).lines().size());
            assertEquals(line(1), new String(taken.get(0).lines().get(0), StandardCharsets.UTF_8));
            assertEquals(line(BATCH), new String(taken.get(0).lines().get(BATCH - 1), StandardCharsets.UTF_8));
            assertEquals(Files.size(live), taken.get(0).to());
            assertEquals(3, roundOfTake.get(), "one look when the batch began, one when it was full");
        } finally {
            follower.get().close(Duration.ofSeconds(5));
        }
    }

    /** Appends record {@code n}; the live file's size after it. */
    private static long append(Path live, int n) throws IOException {
        Files.writeString(live, line(n), StandardOpenOption.APPEND);
        return Files.size(live);
    }

    /**
     * The start of the file after a finished one is that file, however often the log rotates just before or just
     * after the listing: the follower once listed the files and then read the live file's first record, so a rotation
     * right after the listing moved the cursor to the fresh live file and skipped the files between (their records
     * were never indexed or shipped, and retention took them for shipped; DecisionIndexFeedTest once waited 30 s for
     * them).
     */
    @Test
    void theFileAfterAFinishedOneIsThatFileWhenTheLogRotatesAroundTheListing(@TempDir Path dir) throws Exception {
        for (int before = 0; before <= 2; before++) {
            for (int after = 0; after <= 2; after++) {
                Path live = Files.createDirectories(dir.resolve(before + "-" + after)).resolve("decisions.jsonl");
                Path done = live.resolveSibling("decisions-20261204T100000Z-0001.jsonl");
                Files.writeString(done, "{\"decision_id\":\"id-1\"}\n");
                Files.writeString(live, "{\"decision_id\":\"id-2\"}\n");
                AtomicInteger files = new AtomicInteger(2);
                int rotationsBefore = before;
                int rotationsAfter = after;
                LogFollower follower = new LogFollower(live, FOLLOWER, () -> { }, 1, () -> BATCH,
                        () -> Duration.ZERO, listed -> {
                            rotate(listed, files, rotationsBefore);
                            List<Path> listing = dev.gatehouse.gateway.audit.LogFiles.files(listed);
                            rotate(listed, files, rotationsAfter);
                            return listing;
                        });
                ShipCursor next = follower.startOfNext(done).orElseThrow();
                assertEquals("id-2", next.firstId(), before + " rotations before the listing, " + after + " after");
                assertEquals(0, next.offset());
            }
        }
    }

    /** Rotates the live file {@code times}: renamed to the next rotated name, a fresh one with the next id. */
    private static void rotate(Path live, AtomicInteger files, int times) throws IOException {
        for (int i = 0; i < times; i++) {
            int n = files.get();
            Files.move(live, live.resolveSibling(String.format("decisions-20261204T1000%02dZ-%04d.jsonl", n, n)));
            Files.writeString(live, "{\"decision_id\":\"id-" + files.incrementAndGet() + "\"}\n");
        }
    }
}
