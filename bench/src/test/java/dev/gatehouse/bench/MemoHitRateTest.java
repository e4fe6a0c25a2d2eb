package dev.gatehouse.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.DecisionInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memo's hit rate on the mixed trace, as {@code make bench} runs it: the trace holds a name the revision does not
 * serve ({@code no_such_tool}), which the gate sends with no row and no schema (this crashed the run once the schemas
 * came from the served revision), and every call of the trace is counted as a hit, a miss or skipped.
 */
class MemoHitRateTest {

    @Test
    void theMixedTraceRunsWholeAndEveryCallIsCounted(@TempDir Path dir) throws Exception {
        List<DecisionInput> trace = MemoHitRate.trace(500);
        assertTrue(trace.stream().anyMatch(input -> input.tool().equals(Optional.of("no_such_tool"))),
                "an unknown name is in it");

        Path out = dir.resolve("memo-hit-rate.json");
        MemoHitRate.main(new String[] {out.toString(), "500"});
        String json = Files.readString(out);
        assertEquals(500, number(json, "hits") + number(json, "misses") + number(json, "skipped"), json);
        assertTrue(number(json, "hits") > 0, json);
    }

    private static long number(String json, String member) {
        Matcher matcher = Pattern.compile("\"" + member + "\": (\\d+)").matcher(json);
        assertTrue(matcher.find(), member + " in " + json);
        return Long.parseLong(matcher.group(1));
    }
}
