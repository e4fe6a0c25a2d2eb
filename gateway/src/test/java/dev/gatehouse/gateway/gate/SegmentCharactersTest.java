package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The PEP reports each non-ASCII segment's Unicode categories; the policy decides what a name may hold. */
class SegmentCharactersTest {

    @Test
    void plainAsciiSegmentsNeedNoFact() {
        assertEquals(Map.of(), SegmentCharacters.of(Map.of("path", "notes/plan v2.md"), List.of("path"),
                List.of("a1")));
    }

    @Test
    void everyOtherSegmentGetsTheCategoriesOfItsCharactersButTheFourAllowedPunctuationMarks() {
        Map<String, List<String>> facts = SegmentCharacters.of(Map.of("from", "Привет/a:b/日本.md",
                "to", "x\u200b.md", "other", "ignored/ü"), List.of("from", "to"), List.of("a1"));
        assertEquals(Map.of("Привет", List.of("Ll", "Lu"), "a:b", List.of("Ll", "Po"), "日本.md", List.of("Ll", "Lo"),
                "x\u200b.md", List.of("Cf", "Ll")), facts);
    }

    /** The ids a subtree is built from are one segment each, described whole: a "/" inside one is not split. */
    @Test
    void theCallerIdsAreDescribedWholeAndNonStringsAreLeftToTheSchema() {
        assertEquals(Map.of("é", List.of("Ll"), "агент/x", List.of("Ll", "Po")), SegmentCharacters.of(
                Map.of("path", 7), List.of("path"), List.of("é", "агент/x", "a1")));
        assertEquals(Map.of(), SegmentCharacters.of(List.of("x"), List.of("path"), List.of("a1")));
    }

    /** Only a row with confined paths has its decision read the ids: no other call carries their facts. */
    @Test
    void aRowWithoutPathsGetsNoFacts() {
        assertEquals(Map.of(), SegmentCharacters.of(Map.of("path", "日本"), List.of(), List.of("агент")));
    }

    @Test
    void loneSurrogatesAndUnassignedCodePointsAreReportedAsSuch() {
        assertEquals(Map.of("a\ud800", List.of("Cs", "Ll"), "\u0378", List.of("Cn")),
                SegmentCharacters.of(Map.of("path", "a\ud800/\u0378"), List.of("path"), List.of("a1")));
    }
}
