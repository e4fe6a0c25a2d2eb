package dev.gatehouse.local.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.local.storage.AtomicFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wiki write whose process is SIGKILLed halfway through a 4 MiB page: the page
 * stays byte for byte the old version, and the leftover temporary file never shows in a listing.
 */
class WikiWriteKillTest {

    private static final WikiPath PAGE = WikiPath.parse("agents/a1/big.md");
    private static final String HALFWAY = "HALFWAY";

    @TempDir
    Path dir;

    @Test
    void aWriterKilledHalfwayLeavesTheOldPageWhole() throws Exception {
        new WikiStore(dir, AtomicFiles.PLAIN).write(PAGE, "old version", Optional.empty());

        Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HalfwayWriter.class.getName(), dir.toString())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null && !line.equals(HALFWAY)) {
                // wait until half of the new page is on disk
            }
            assertEquals(HALFWAY, line, "the writer never got halfway");
            writer.destroyForcibly(); // SIGKILL: no finally block, no cleanup in the writer runs
            assertTrue(writer.waitFor(10, TimeUnit.SECONDS));
        }

        List<Path> leftovers = temporaries();
        assertEquals(1, leftovers.size(), "the kill should have left the half-written temporary file");
        WikiStore restarted = new WikiStore(dir, AtomicFiles.PLAIN);
        assertEquals(new WikiStore.Page("agents/a1/big.md", "old version", "r1"), restarted.read(PAGE));
        assertEquals(List.of(new WikiStore.Entry("agents/a1/big.md", "page", Optional.of("r1"))),
                restarted.list(WikiPath.parse("agents/a1")));
        restarted.removeLeftovers();
        assertFalse(Files.exists(leftovers.get(0)));
    }

    private List<Path> temporaries() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(AtomicFiles::isTemporary).toList();
        }
    }

    /** The process that gets killed: writes half of a 4 MiB page, says so, and waits to be killed. */
    public static final class HalfwayWriter {

        public static void main(String[] args) {
            WikiStore store = new WikiStore(Path.of(args[0]), (out, content) -> {
                out.write(content, 0, content.length / 2);
                out.flush();
                System.out.println(HALFWAY);
                System.out.flush();
                try {
                    Thread.sleep(TimeUnit.MINUTES.toMillis(1));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IOException("not killed in time");
            });
            store.write(PAGE, "n".repeat(4 * 1024 * 1024), Optional.of("r1"));
        }
    }
}
