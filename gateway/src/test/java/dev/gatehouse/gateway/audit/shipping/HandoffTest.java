package dev.gatehouse.gateway.audit.shipping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.audit.DecisionLogSink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the hand-off gives the index feed of the records the writer handed it: only records that continue exactly at
 * the cursor, never past what the writer reported, at most a batch; nothing where a write was dropped (full by
 * records or by bytes), so the feed reads the file there; the records the cursor passed and those of files it left
 * are forgotten, freeing their room.
 */
class HandoffTest {

    /** Records of 10 bytes each (with the newline), named {@code <file><n>}. */
    private static List<DecisionLogSink.Appended> records(String file, int from, int count) {
        List<DecisionLogSink.Appended> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            String line = String.format("%-9s\n", file + i);
            records.add(new DecisionLogSink.Appended(line.getBytes(StandardCharsets.UTF_8), null));
        }
        return records;
    }

    private static List<String> names(Optional<LogTail.Chunk> chunk) {
        return chunk.orElseThrow().lines().stream().map(l -> new String(l, StandardCharsets.UTF_8).trim()).toList();
    }

    private static ShipCursor at(String firstId, long offset) {
        return new ShipCursor("decisions.jsonl", firstId, offset);
    }

    @Test
    void recordsContinuingAtTheCursorComeInBatchesNeverPastTheReport() {
        Handoff handoff = new Handoff(100, 10_000);
        assertTrue(handoff.offer("A", 0, records("a", 0, 3)));
        assertTrue(handoff.offer("A", 30, records("a", 3, 4)));
        LogTail.Live reported = new LogTail.Live("A", 70);

        Optional<LogTail.Chunk> all = handoff.continuing(at("A", 0), () -> reported, 10);
        assertEquals(List.of("a0", "a1", "a2", "a3", "a4", "a5", "a6"), names(all));
        assertEquals(70, all.get().to());
        assertEquals("A", all.get().firstId());
        assertFalse(all.get().complete());
        assertEquals(7, all.get().handed().size());
        assertEquals(List.of("a0", "a1"), names(handoff.continuing(at("A", 0), () -> reported, 2)), "a batch");
        assertEquals(List.of("a2", "a3", "a4"), names(handoff.continuing(at("A", 20), () -> reported, 3)),
                "from the middle of a write");
        assertEquals(List.of("a0", "a1", "a2", "a3"), names(handoff.continuing(at("A", 0),
                () -> new LogTail.Live("A", 45), 10)), "not past the report");
        assertEquals(Optional.empty(), handoff.continuing(at("A", 25), () -> reported, 10), "not a record start");
        assertEquals(Optional.empty(), handoff.continuing(at(null, 0), () -> reported, 10), "no cursor yet");
        assertEquals(Optional.empty(), handoff.continuing(at("A", 0), () -> new LogTail.Live("A", 0), 10),
                "nothing reported yet");
        assertEquals(Optional.empty(), handoff.continuing(at("A", 70), () -> reported, 10), "nothing left");
        assertTrue(handoff.offer("A", 70, records("a", 7, 100)), "the room of the passed records is free again");
    }

    @Test
    void aFullHandoffDropsWholeWritesAndTheRecordsAfterThemWaitForTheFile() {
        Handoff handoff = new Handoff(5, 10_000);
        LogTail.Live reported = new LogTail.Live("A", 1_000);
        assertTrue(handoff.offer("A", 0, records("a", 0, 3)));
        assertFalse(handoff.offer("A", 30, records("a", 3, 3)), "6 records > 5");
        assertEquals(3, handoff.dropped());
        assertTrue(handoff.offer("A", 60, records("a", 6, 2)));
        assertEquals(List.of("a0", "a1", "a2"), names(handoff.continuing(at("A", 0), () -> reported, 10)),
                "up to the dropped write");
        assertEquals(Optional.empty(), handoff.continuing(at("A", 30), () -> reported, 10), "read from the file");
        assertEquals(List.of("a6", "a7"), names(handoff.continuing(at("A", 60), () -> reported, 10)),
                "once the file was read up to the next kept write");
        assertTrue(handoff.offer("A", 80, records("a", 8, 3)), "the room of the passed records is free again");
        assertFalse(handoff.offer("A", 110, records("a", 11, 1)), "a6 and a7 are not passed yet");

        Handoff bytes = new Handoff(100, 25);
        assertTrue(bytes.offer("A", 0, records("a", 0, 2)));
        assertFalse(bytes.offer("A", 20, records("a", 2, 1)), "30 bytes > 25");
        assertEquals(1, bytes.dropped());
        assertFalse(bytes.offer("A", 20, records("a", 2, 3)));
        assertEquals(4, bytes.dropped());
        bytes.continuing(at("A", 20), () -> reported, 10);
        assertTrue(bytes.offer("A", 50, records("a", 5, 2)));
    }

    @Test
    void recordsOfLaterFilesWaitForTheCursorAndThoseOfFilesItLeftAreForgotten() {
        Handoff handoff = new Handoff(8, 10_000);
        assertTrue(handoff.offer("A", 0, records("a", 0, 2)));
        assertTrue(handoff.offer("B", 0, records("b", 0, 2)));
        assertTrue(handoff.offer("C", 0, records("c", 0, 2)));
        LogTail.Live reported = new LogTail.Live("C", 20);
        assertEquals(List.of("a0", "a1"), names(handoff.continuing(at("A", 0), () -> reported, 10)),
                "A was rotated: whole");
        assertEquals(Optional.empty(), handoff.continuing(at("A", 20), () -> reported, 10),
                "the cursor moves to B by the files");
        assertEquals(List.of("b0", "b1"), names(handoff.continuing(at("B", 0), () -> reported, 10)),
                "B was rotated too: whole");
        assertEquals(Optional.empty(), handoff.continuing(at("X", 70), () -> reported, 10),
                "a cursor in a file written before start: every kept record waits");
        assertEquals(List.of("c0", "c1"), names(handoff.continuing(at("C", 0), () -> reported, 10)));
        assertTrue(handoff.offer("C", 20, records("c", 2, 6)), "A's and B's records were forgotten");
        assertFalse(handoff.offer("D", 0, records("d", 0, 1)), "full");
        assertEquals(Optional.empty(), handoff.continuing(at("D", 10), () -> new LogTail.Live("D", 10), 10),
                "D's first record was not kept: read from the file");
        assertTrue(handoff.offer("D", 10, records("d", 1, 8)),
                "C's records were forgotten: the cursor is in a later file, though none of it was kept");
    }
}
