package dev.gatehouse.gateway.audit.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one read of a log file hands a sink: whole lines only, byte for byte, also lines that cross the 64 KiB reads
 * or are longer than one read, never past what the writer reported nor past the batch size, and the offset after
 * the last line taken.
 */
class LogTailTest {

    private static String line(int n, int length) {
        String head = "{\"decision_id\":\"id-" + n + "\",\"padding\":\"";
        return head + "y".repeat(length - head.length() - 3) + "\"}\n";
    }

    @Test
    void linesAcrossAndLongerThanOneReadComeWholeAndNothingPastTheReportOrTheBatch(@TempDir Path dir)
            throws Exception {
        List<String> lines = new ArrayList<>();
        int[] lengths = {1_000, 65_000, 1_000, 200_000, 70, 64 * 1024, 64 * 1024 + 1, 300};
        for (int i = 0; i < lengths.length; i++) {
            lines.add(line(i + 1, lengths[i]));
        }
        Path live = dir.resolve("decisions.jsonl");
        Files.writeString(live, String.join("", lines));
        long size = Files.size(live);

        LogTail.Chunk all = LogTail.read(live, false, 0, 100, () -> new LogTail.Live("id-1", size));
        assertEquals(lines, text(all));
        assertEquals(size, all.to());
        assertFalse(all.complete(), "the live file may grow");

        long cut = size - 10; // the writer reported the last line unfinished
        LogTail.Chunk reported = LogTail.read(live, false, 0, 100, () -> new LogTail.Live("id-1", cut));
        assertEquals(lines.subList(0, lines.size() - 1), text(reported));
        assertEquals(size - lines.get(lines.size() - 1).length(), reported.to());

        long from = lines.get(0).length() + lines.get(1).length();
        LogTail.Chunk batch = LogTail.read(live, false, from, 3, () -> new LogTail.Live("id-1", size));
        assertEquals(lines.subList(2, 5), text(batch));
        assertEquals(from + lines.get(2).length() + lines.get(3).length() + lines.get(4).length(), batch.to());

        Path rotated = dir.resolve("decisions-20261201T093000Z-0001.jsonl");
        Files.move(live, rotated);
        LogTail.Chunk whole = LogTail.read(rotated, true, from, 100, () -> new LogTail.Live("id-other", 0));
        assertEquals(lines.subList(2, lines.size()), text(whole));
        assertTrue(whole.complete(), "a rotated file read to its end");
    }

    private static List<String> text(LogTail.Chunk chunk) {
        return chunk.lines().stream().map(bytes -> new String(bytes, StandardCharsets.UTF_8)).toList();
    }
}
