package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.THREAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A credential's value is masked in the decision log whatever the spelling of its member's name: case, separators,
 * look-alike letters of other scripts, invisible characters, compatibility forms and accents (a new user's trial
 * logged {@code p\u0430ssword}'s and {@code pass\u200bword}'s values in clear), and ordinary names are not masked.
 */
class ArgumentMaskerTest {

    /** Latin letters and a look-alike of each in another script (Cyrillic, Greek). */
    private static final Map<Character, String> LOOK_ALIKES = Map.of('a', "\u0430", 'o', "\u043e", 'e', "\u0435",
            'c', "\u0441", 'p', "\u0440", 'k', "\u03ba", 't', "\u0442", 'i', "\u0456", 's', "\u0455", 'r', "\u0433");

    /** Every spelling of {@code word} the masker must read as it: one change at a time, at every place. */
    private static List<String> spellings(String word) {
        List<String> spellings = new ArrayList<>(List.of(word, word.toUpperCase(), "client_" + word, word + "Value",
                "x-" + word + "-2", fullwidth(word), word.charAt(0) + "\u0301" + word.substring(1)));
        for (int i = 1; i < word.length(); i++) {
            for (String inserted : List.of("\u200b", "\u00ad", "_", "-", " ", ".", "\u2060")) {
                spellings.add(word.substring(0, i) + inserted + word.substring(i));
            }
        }
        for (int i = 0; i < word.length(); i++) {
            String alike = LOOK_ALIKES.get(word.charAt(i));
            if (alike != null) {
                spellings.add(word.substring(0, i) + alike + word.substring(i + 1));
            }
        }
        return spellings;
    }

    private static String fullwidth(String word) {
        StringBuilder wide = new StringBuilder();
        word.chars().forEach(c -> wide.append((char) (c - 'a' + '\uff41')));
        return wide.toString();
    }

    @Test
    void everySpellingOfACredentialWordIsMasked() {
        int checked = 0;
        for (String word : ArgumentMasker.WORDS) {
            for (String name : spellings(word)) {
                assertTrue(ArgumentMasker.masks(name), () -> "not masked: " + name.codePoints()
                        .mapToObj(cp -> String.format("U+%04X", cp)).toList());
                checked++;
            }
        }
        for (String name : List.of("apiToken", "API_KEY", "Authorization", "clientSecret", "privateKey",
                "accessKey", "bearerName", "sessionCookie", "Credentials", "pass-wd", "t0ken", "p\u0430ssword",
                "pass\u200bword", "\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44", "t\u043eken")) {
            assertTrue(ArgumentMasker.masks(name), name);
            checked++;
        }
        assertTrue(checked > 800, "checked " + checked);
    }

    @Test
    void ordinaryNamesAreNotMasked() {
        for (String name : List.of("path", "title", "content", "author", "authority", "mapping", "pinned",
                "threadId", "runtimeMode", "interactionMode", "description", "name", "keyboard", "passage",
                "result", "runId", "runRevision", "assignmentRevision", "summary", "toke", "secrecy", "cook", "bear")) {
            assertFalse(ArgumentMasker.masks(name), name);
        }
    }

    /** The trial's call: the values under look-alike names are in neither the line nor the values kept. */
    @Test
    void aLookAlikeCredentialNameKeepsItsValueOutOfTheLog() throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("p\u0430ssword", "SEKRET31qz");
        result.put("pass\u200bword", "SEKRET32qz");
        result.put("password", "SEKRET33qz");
        result.put("\uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44", "SEKRET34qz");
        result.put("t\u043eken", List.of("SEKRET35qz"));
        result.put("notes", "kept-in-clear");
        DecisionInput input = new DecisionInput(Optional.of("project_work_submit"),
                Optional.of(Map.of("runId", "run-1", "result", result)), List.of(), THREAD, Map.of());
        Decision allow = new Decision(true, List.of(), Obligations.NONE, "rev-1", 5);
        for (DecisionRecord record : List.of(DecisionRecord.forCall(input, new PolicyOutcome.Decided<>(allow)),
                DecisionRecord.forCall(input, WrittenInput.forCall(input), Optional.empty(),
                        new PolicyOutcome.Decided<>(allow), DecisionRecord.forCall(input,
                                new PolicyOutcome.Decided<>(allow)).admission()))) {
            RecordLine encoded = DecisionRecordJson.encode(record, 256, 16 * 1024);
            String text = new String(encoded.line(), StandardCharsets.UTF_8);
            assertFalse(text.contains("SEKRET"), text);
            for (StoredValue value : encoded.values()) {
                assertFalse(new String(value.entry(), StandardCharsets.UTF_8).contains("SEKRET"));
            }
            JsonNode line = PolicyJson.MAPPER.readTree(text);
            assertEquals(5, line.path("masked").size(), line.path("masked").toString());
            assertEquals("kept-in-clear", line.at("/input/arguments/result/notes").asText());
        }
    }
}
