package dev.gatehouse.local.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.storage.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wiki store on a real directory: optimistic concurrency, atomic writes, confinement. */
class WikiStoreTest {

    private static final WikiPath PAGE = WikiPath.parse("agents/a1/page.md");
    private static final WikiPath ROOT = WikiPath.parse("agents/a1");

    @TempDir
    Path dir;

    private WikiStore store;

    @BeforeEach
    void create() {
        store = new WikiStore(dir, AtomicFiles.PLAIN);
        assertEquals("r1", store.write(PAGE, "original", Optional.empty()));
    }

    @Test
    void ofConcurrentWritesFromOneRevisionExactlyOneWinsAndTheOthersConflict() throws Exception {
        int writers = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            String content = "content " + i;
            results.add(pool.submit((Callable<String>) () -> {
                start.await();
                try {
                    return content + " -> " + store.write(PAGE, content, Optional.of("r1"));
                } catch (ApiException e) {
                    return e.code();
                }
            }));
        }
        start.countDown();
        List<String> outcomes = new ArrayList<>();
        for (Future<String> result : results) {
            outcomes.add(result.get());
        }
        pool.shutdown();

        List<String> winners = outcomes.stream().filter(o -> o.endsWith("-> r2")).toList();
        assertEquals(1, winners.size(), outcomes.toString());
        assertEquals(writers - 1, outcomes.stream().filter("revision_conflict"::equals).count());
        String winner = winners.get(0).substring(0, winners.get(0).indexOf(" -> "));
        assertEquals(new WikiStore.Page("agents/a1/page.md", winner, "r2"), store.read(PAGE));
    }

    @Test
    void aWriteThatFailsHalfwayLeavesTheOldPageAndNoTemporaryFile() throws IOException {
        byte[] big = "x".repeat(4 * 1024 * 1024).getBytes(StandardCharsets.UTF_8);
        WikiStore failing = new WikiStore(dir, (out, content) -> {
            out.write(content, 0, content.length / 2);
            throw new IOException("No space left on device");
        });

        assertThrows(RuntimeException.class, () -> failing.write(PAGE, new String(big, StandardCharsets.UTF_8),
                Optional.of("r1")));

        assertEquals(new WikiStore.Page("agents/a1/page.md", "original", "r1"), store.read(PAGE));
        assertEquals(List.of(new WikiStore.Entry("agents/a1/page.md", "page", Optional.of("r1"))), store.list(ROOT));
        assertEquals(List.of(), temporaries());
    }

    @Test
    void leftoversOfACrashedWriteNeverShowAndAreRemovedAtStart() throws IOException {
        Path leftover = dir.resolve("agents/a1/page.md~0b7d.tmp");
        Files.writeString(leftover, "half a page with the word original");

        assertEquals(List.of(new WikiStore.Entry("agents/a1/page.md", "page", Optional.of("r1"))), store.list(ROOT));
        assertEquals(List.of(new WikiStore.Hit("agents/a1/page.md", "original")), store.search(ROOT, "original"));

        store.removeLeftovers();

        assertFalse(Files.exists(leftover));
    }

    @Test
    void aFolderIsNotAPageAndNothingIsWrittenBesideIt() throws IOException {
        ApiException refused = assertThrows(ApiException.class, () -> store.write(ROOT, "x", Optional.empty()));

        assertEquals("not_a_page", refused.code());
        try (Stream<Path> files = Files.list(dir.resolve("agents"))) {
            assertEquals(List.of(dir.resolve("agents/a1")), files.toList());
        }
    }

    @Test
    void namesLongerThanTheStorageHoldsAreRefusedCleanly() throws IOException {
        String longest = "p".repeat(251);
        assertEquals("r1", store.write(WikiPath.parse("agents/a1/" + longest), "fits", Optional.empty()));

        for (String name : List.of("p".repeat(252), "\u00e9".repeat(126), "\u00e9".repeat(200),
                "\ud835\udc00".repeat(200), "p".repeat(256), "\u00e9".repeat(255))) {
            ApiException parsed = assertThrows(ApiException.class, () -> WikiPath.parse("agents/a1/" + name));
            assertEquals("path_invalid", parsed.code(), "the path rule has the store's limit");
            ApiException refused = assertThrows(ApiException.class,
                    () -> store.write(new WikiPath(List.of("agents", "a1", name)), "x", Optional.empty()));
            assertEquals("name_too_long", refused.code(), "the store refuses what it cannot hold");
        }
        assertEquals(List.of(), temporaries());
    }

    @Test
    void writeWithoutBaseOnAnExistingPageAndDeleteFromAStaleRevisionConflict() {
        ApiException create = assertThrows(ApiException.class, () -> store.write(PAGE, "again", Optional.empty()));
        ApiException delete = assertThrows(ApiException.class, () -> store.delete(PAGE, "r0"));

        assertEquals("revision_conflict", create.code());
        assertEquals("revision_conflict", delete.code());
        assertEquals("original", store.read(PAGE).content());
    }

    @Test
    void revisionsKeepIncreasingAcrossDeleteAndRecreate() {
        assertEquals("r2", store.write(PAGE, "second", Optional.of("r1")));
        assertEquals("r2", store.delete(PAGE, "r2"));
        assertEquals("page_not_found", assertThrows(ApiException.class, () -> store.read(PAGE)).code());

        assertEquals("r3", store.write(PAGE, "third", Optional.empty()));
    }

    @Test
    void searchStaysUnderTheRequestedFolder() {
        store.write(WikiPath.parse("agents/a2/secret.md"), "A2-SECRET", Optional.empty());
        store.write(WikiPath.parse("agents/a10/page.md"), "secret of a10", Optional.empty());

        assertEquals(List.of(), store.search(ROOT, "secret"));
        assertEquals(List.of(new WikiStore.Hit("agents/a2/secret.md", "A2-SECRET")),
                store.search(WikiPath.parse("agents/a2"), "a2-secret"));
    }

    @Test
    void symbolicLinksAreRefusedAndNothingIsCreatedOutside(@TempDir Path outside) throws IOException {
        store.write(WikiPath.parse("agents/a2/secret.md"), "A2-SECRET", Optional.empty());
        Files.createSymbolicLink(dir.resolve("agents/a1/link-out"), Path.of("../a2"));
        Files.createSymbolicLink(dir.resolve("agents/a1/dir-link"), outside);

        assertEquals("path_escape", assertThrows(ApiException.class,
                () -> store.read(WikiPath.parse("agents/a1/link-out/secret.md"))).code());
        assertEquals("path_escape", assertThrows(ApiException.class,
                () -> store.write(WikiPath.parse("agents/a1/dir-link/new.md"), "x", Optional.empty())).code());
        assertEquals(List.of(new WikiStore.Entry("agents/a1/page.md", "page", Optional.of("r1"))), store.list(ROOT));
        try (Stream<Path> created = Files.list(outside)) {
            assertEquals(0, created.count());
        }
    }

    @Test
    void malformedPathsAreRefused() {
        for (String path : List.of("", "/etc/passwd", "agents//a1", "agents/../a2", "agents/a1/x~tmp",
                "agents\\a1", "agents/a1/trailing.", "agents/%2e%2e")) {
            assertEquals("path_invalid", assertThrows(ApiException.class, () -> WikiPath.parse(path)).code(), path);
        }
        assertTrue(WikiPath.parse("agents/a1/Notizen über/страница 1.md").segments().size() == 4);
    }

    private static final WikiPath MOVED = WikiPath.parse("agents/a1/archive/page.md");

    @Test
    void aMoveTakesThePageWithItsContentAndANewRevisionAndLeavesNothingBehind() throws IOException {
        assertEquals(new WikiStore.Moved("agents/a1/page.md", "agents/a1/archive/page.md", "r2"),
                store.move(PAGE, MOVED, "r1"));

        assertEquals(new WikiStore.Page("agents/a1/archive/page.md", "original", "r2"), store.read(MOVED));
        assertEquals("page_not_found", assertThrows(ApiException.class, () -> store.read(PAGE)).code());
        assertEquals(List.of(new WikiStore.Entry("agents/a1/archive", "folder", Optional.empty())), store.list(ROOT));
        assertEquals(List.of(), temporaries());
        assertEquals("r2", store.delete(MOVED, "r2"));
    }

    @Test
    void aStaleRevisionAMissingPageAndATakenDestinationChangeNothing() {
        store.write(MOVED, "already here", Optional.empty());

        assertEquals("revision_conflict", assertThrows(ApiException.class,
                () -> store.move(PAGE, WikiPath.parse("agents/a1/free.md"), "r7")).code());
        assertEquals("page_not_found", assertThrows(ApiException.class,
                () -> store.move(WikiPath.parse("agents/a1/gone.md"), WikiPath.parse("agents/a1/free.md"), "r1"))
                .code());
        assertEquals("page_exists", assertThrows(ApiException.class, () -> store.move(PAGE, MOVED, "r1")).code());
        assertEquals("page_exists", assertThrows(ApiException.class, () -> store.move(PAGE, PAGE, "r1")).code());
        assertEquals("not_a_page", assertThrows(ApiException.class,
                () -> store.move(PAGE, WikiPath.parse("agents/a1/archive"), "r1")).code());
        assertEquals("not_a_folder", assertThrows(ApiException.class,
                () -> store.move(MOVED, WikiPath.parse("agents/a1/page.md/x.md"), "r1")).code());

        assertEquals(new WikiStore.Page("agents/a1/page.md", "original", "r1"), store.read(PAGE));
        assertEquals(new WikiStore.Page("agents/a1/archive/page.md", "already here", "r1"), store.read(MOVED));
        assertEquals("page_not_found", assertThrows(ApiException.class,
                () -> store.read(WikiPath.parse("agents/a1/free.md"))).code());
    }

    @Test
    void revisionsNeverRepeatAtEitherPathAcrossMovesAndRecreates() {
        store.write(MOVED, "old", Optional.empty());
        store.write(MOVED, "older", Optional.of("r1"));
        store.write(MOVED, "oldest", Optional.of("r2"));
        store.delete(MOVED, "r3");

        assertEquals("r4", store.move(PAGE, MOVED, "r1").revision(), "above the destination's old r3");
        assertEquals("r2", store.write(PAGE, "recreated", Optional.empty()), "the source keeps its counter");
        assertEquals("page_exists", assertThrows(ApiException.class, () -> store.move(MOVED, PAGE, "r4")).code());
        store.delete(PAGE, "r2");
        assertEquals("r5", store.move(MOVED, PAGE, "r4").revision());
    }

    @Test
    void ofConcurrentMovesFromOneRevisionExactlyOneWinsAndThePageIsInOnePlace() throws Exception {
        int movers = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(movers);
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < movers; i++) {
            WikiPath target = WikiPath.parse("agents/a1/moved-" + i + ".md");
            results.add(pool.submit((Callable<String>) () -> {
                start.await();
                try {
                    return store.move(PAGE, target, "r1").to();
                } catch (ApiException e) {
                    return e.code();
                }
            }));
        }
        start.countDown();
        List<String> outcomes = new ArrayList<>();
        for (Future<String> result : results) {
            outcomes.add(result.get());
        }
        pool.shutdown();

        List<String> winners = outcomes.stream().filter(o -> o.startsWith("agents/")).toList();
        assertEquals(1, winners.size(), outcomes.toString());
        assertEquals(List.of(new WikiStore.Entry(winners.get(0), "page", Optional.of("r2"))), store.list(ROOT));
    }

    @Test
    void opposingMovesNeverDeadlockAndThePageEndsInExactlyOnePlace() {
        WikiPath other = WikiPath.parse("agents/a1/other.md");
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> both = new ArrayList<>();
            for (WikiPath[] pair : List.of(new WikiPath[] {PAGE, other}, new WikiPath[] {other, PAGE})) {
                both.add(pool.submit(() -> {
                    start.await();
                    int moved = 0;
                    for (int i = 0; i < 300; i++) {
                        try {
                            store.move(pair[0], pair[1], store.read(pair[0]).revision());
                            moved++;
                        } catch (ApiException e) {
                            // page_not_found or revision_conflict: the other mover was first
                        }
                    }
                    return moved;
                }));
            }
            start.countDown();
            int moves = 0;
            for (Future<Integer> mover : both) {
                moves += mover.get();
            }
            pool.shutdown();
            String where = moves % 2 == 0 ? "agents/a1/page.md" : "agents/a1/other.md";
            assertEquals(List.of(new WikiStore.Entry(where, "page", Optional.of("r" + (moves + 1)))),
                    store.list(ROOT));
            assertEquals("original", store.read(WikiPath.parse(where)).content());
        });
    }

    @Test
    void aMoveThroughASymbolicLinkIsRefused(@TempDir Path outside) throws IOException {
        Files.createSymbolicLink(dir.resolve("agents/a1/dir-link"), outside);

        assertEquals("path_escape", assertThrows(ApiException.class,
                () -> store.move(PAGE, WikiPath.parse("agents/a1/dir-link/page.md"), "r1")).code());
        assertEquals("original", store.read(PAGE).content());
        try (Stream<Path> created = Files.list(outside)) {
            assertEquals(0, created.count());
        }
    }

    private List<Path> temporaries() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(AtomicFiles::isTemporary).toList();
        }
    }
}
