package dev.gatehouse.local.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.storage.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One name limit end to end (docs/domain.md §7): the policy's limits and subtree folders
 * (policies/gatehouse/wiki/data.json) are the numbers and names this store holds, and a segment of exactly the
 * policy's limit is stored while one byte more is refused, in every width of UTF-8.
 */
class WikiLimitsTest {

    @TempDir
    Path dir;

    private static JsonNode policyData() throws IOException {
        Path repo = Path.of(System.getProperty("gatehouse.repo.dir", "..")).toAbsolutePath().normalize();
        return new ObjectMapper().readTree(repo.resolve("policies/gatehouse/wiki/data.json").toFile());
    }

    @Test
    void theStoreHoldsThePolicysLimitsAndFolders() throws IOException {
        JsonNode data = policyData();
        assertEquals(data.at("/limits/maxSegmentBytes").intValue(), WikiPath.MAX_SEGMENT_BYTES);
        assertEquals(data.at("/limits/maxSegments").intValue(), WikiPath.MAX_RELATIVE_SEGMENTS);
        assertEquals(data.at("/roots/thread").textValue(), WikiPath.THREAD_AGENTS);
        assertEquals(data.at("/roots/outside_agent").textValue(), WikiPath.OUTSIDE_AGENTS);
    }

    @Test
    void aSegmentOfThePolicysLimitIsStoredInEveryWidthAndOneByteMoreIsNot() {
        WikiStore store = new WikiStore(dir, AtomicFiles.PLAIN);
        int max = WikiPath.MAX_SEGMENT_BYTES;
        for (String unit : List.of("p", "\u00e9", "\u65e5", "\ud801\udc00")) {
            int width = unit.getBytes(StandardCharsets.UTF_8).length;
            String longest = unit.repeat(max / width) + "p".repeat(max % width);
            assertEquals(max, longest.getBytes(StandardCharsets.UTF_8).length);
            assertEquals("r1", store.write(WikiPath.parse("agents/a1/" + longest), "fits", Optional.empty()), unit);
            assertEquals("fits", store.read(WikiPath.parse("agents/a1/" + longest)).content());
            String over = longest + "p";
            assertEquals("path_invalid", assertThrows(ApiException.class,
                    () -> WikiPath.parse("agents/a1/" + over)).code(), unit);
            assertEquals("name_too_long", assertThrows(ApiException.class,
                    () -> store.write(new WikiPath(List.of("agents", "a1", over)), "x", Optional.empty())).code());
        }
    }

    /** Found by the gateway's WikiConfinementPropertyTest: a page two levels above a new page was a 500. */
    @Test
    void aPageWhereAFolderOfThePathShouldBeIsNotAFolder() {
        WikiStore store = new WikiStore(dir, AtomicFiles.PLAIN);
        store.write(WikiPath.parse("agents/a1/Outside-Agents"), "page", Optional.empty());
        for (String below : List.of("agents/a1/Outside-Agents/a", "agents/a1/Outside-Agents/a/ｅé")) {
            assertEquals("not_a_folder", assertThrows(ApiException.class,
                    () -> store.write(WikiPath.parse(below), "x", Optional.empty())).code(), below);
        }
    }

    @Test
    void theSegmentCountIsThePolicysBelowTheSubtree() {
        String deepest = String.join("/", java.util.Collections.nCopies(WikiPath.MAX_RELATIVE_SEGMENTS, "d"));
        WikiPath.parse("outside-agents/oa-x/" + deepest);
        assertEquals("path_invalid", assertThrows(ApiException.class,
                () -> WikiPath.parse("outside-agents/oa-x/" + deepest + "/d")).code());
    }

    @Test
    void eachCallerKindUsesOnlyItsOwnFolderOrASharedThreadSubtree() {
        WikiPath.parse("agents/a1/p").within("a1");
        WikiPath.parse("agents/a1/p").within("a1", "agents/a1");
        WikiPath.parse("outside-agents/oa-1/p").within("oa-1", "outside-agents/oa-1");
        WikiPath.parse("agents/a1/p").within("oa-1", "agents/a1");
        for (String[] refused : new String[][] {
                {"outside-agents/a1/p", "a1", "outside-agents/a1"},
                {"agents/a1/p", "a2", "agents/a1"},
                {"outside-agents/oa-2/p", "oa-1", "outside-agents/oa-2"},
                {"agents/oa-2/p", "oa-1", "agents/oa-2"},
                {"agents/a1/p", "oa-1", "agents/a2"},
                {"agents/a1/p", "oa-1", "agents"},
                {"agents/a1/x/p", "oa-1", "agents/a1/x"},
                {"outside-agents/oa-1/p", "oa-1", "agents/a1"}}) {
            assertEquals("path_escape", assertThrows(ApiException.class,
                    () -> WikiPath.parse(refused[0]).within(refused[1], refused[2])).code(), String.join(" ", refused));
        }
    }
}
