package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.facts.SegmentCharacters;
import dev.gatehouse.facts.CallerFacts;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The PEP reports each non-ASCII segment's Unicode categories; the policy decides what a name may hold. */
class SegmentCharactersTest {

    private static final CallerFacts A1 = caller("a1", Optional.empty());

    /** An outside agent {@code agent}, sharing {@code shares} when present: only its ids matter here. */
    private static CallerFacts caller(String agent, Optional<String> shares) {
        return new CallerFacts("outside_agent", agent, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of("full-access"), new CallerFacts.Settings(false, false, false, true, false),
                Optional.empty(), shares);
    }

    @Test
    void plainAsciiSegmentsNeedNoFact() {
        assertEquals(Map.of(), SegmentCharacters.of(Map.of("path", "notes/plan v2.md"), List.of("path"), A1.subtreeIds()));
    }

    @Test
    void everyOtherSegmentGetsTheCategoriesOfItsCharactersButTheFourAllowedPunctuationMarks() {
        Map<String, List<String>> facts = SegmentCharacters.of(Map.of("from", "Привет/a:b/日本.md",
                "to", "x\u200b.md", "other", "ignored/ü"), List.of("from", "to"), A1.subtreeIds());
        assertEquals(Map.of("Привет", List.of("Ll", "Lu"), "a:b", List.of("Ll", "Po"), "日本.md", List.of("Ll", "Lo"),
                "x\u200b.md", List.of("Cf", "Ll")), facts);
    }

    /** The ids a subtree is built from are one segment each, described whole: a "/" inside one is not split. */
    @Test
    void theCallerIdsAreDescribedWholeAndNonStringsAreLeftToTheSchema() {
        assertEquals(Map.of("é", List.of("Ll"), "агент/x", List.of("Ll", "Po")), SegmentCharacters.of(
                Map.of("path", 7), List.of("path"), (caller("é", Optional.of("агент/x"))).subtreeIds()));
        assertEquals(Map.of(), SegmentCharacters.of(List.of("x"), List.of("path"), A1.subtreeIds()));
    }

    /** Only a row with confined paths has its decision read the ids: no other call carries their facts. */
    @Test
    void aRowWithoutPathsGetsNoFacts() {
        assertEquals(Map.of(), SegmentCharacters.of(Map.of("path", "日本"), List.of(), (caller("агент", Optional.empty())).subtreeIds()));
    }

    @Test
    void loneSurrogatesAndUnassignedCodePointsAreReportedAsSuch() {
        assertEquals(Map.of("a\ud800", List.of("Cs", "Ll"), "\u0378", List.of("Cn")),
                SegmentCharacters.of(Map.of("path", "a\ud800/\u0378"), List.of("path"), A1.subtreeIds()));
    }

    /**
     * The gate describes the arguments as its input's JSON carries them: the same facts as from the plain values,
     * and none of a path that was not sent ({@code null} there: too long for its schema).
     */
    @Test
    void theArgumentsAsSentGiveTheSameFactsAndAPathNotSentGivesNone() {
        com.fasterxml.jackson.databind.node.ObjectNode sent = dev.gatehouse.facts.PolicyJson.MAPPER.createObjectNode()
                .put("from", "Привет/a:b/日本.md").put("other", "ignored/ü");
        sent.putNull("to");
        assertEquals(Map.of("Привет", List.of("Ll", "Lu"), "a:b", List.of("Ll", "Po"), "日本.md", List.of("Ll", "Lo")),
                SegmentCharacters.of(sent, List.of("from", "to"), A1.subtreeIds()));
        assertEquals(Map.of(), SegmentCharacters.of(sent, List.of("to"), A1.subtreeIds()));
    }
}
