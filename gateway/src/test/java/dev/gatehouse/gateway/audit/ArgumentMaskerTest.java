package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.THREAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.OmittedArgument;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.gateway.policy.Schemas;
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

    /**
     * A long credential is sent to the policy as its length and SHA-256 ({@code omittedArguments}); those are masked
     * too, under a masked member at any depth and under a long name, while an ordinary long value keeps its facts (a
     * new user's trial found a 308-byte password's SHA-256 in the log).
     */
    @Test
    void theFactsOfALongCredentialAreMaskedToo() throws Exception {
        String secret = "hunter2-" + "L".repeat(300);
        String other = "ordinary-" + "o".repeat(300);
        String longName = "q".repeat(300) + "apikey";
        // As the PEP sends them: a long string the policy does not read is its length and SHA-256.
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("password", omitted(secret));
        result.put("auth", Map.of("clientSecret", List.of("x", omitted(secret + "2"))));
        result.put(longName, omitted(secret + "3"));
        result.put("notes", omitted(other));
        for (DecisionRecord record : records(result)) {
            RecordLine encoded = DecisionRecordJson.encode(record, 256, 16 * 1024);
            StringBuilder logged = new StringBuilder(new String(encoded.line(), StandardCharsets.UTF_8));
            encoded.values().forEach(value -> logged.append(new String(value.entry(), StandardCharsets.UTF_8)));
            for (String credential : List.of(secret, secret + "2", secret + "3")) {
                String digest = StoredValue.sha256(credential.getBytes(StandardCharsets.UTF_8));
                assertFalse(logged.toString().contains(credential), "the value");
                assertFalse(logged.toString().contains(digest), "the SHA-256 of " + credential.length() + " chars");
            }
            JsonNode line = PolicyJson.MAPPER.readTree(encoded.line());
            JsonNode omitted = line.at("/input/omittedArguments");
            assertEquals(ArgumentMasker.MASK, omitted.get("/result/password"), omitted.toString());
            assertEquals(ArgumentMasker.MASK, omitted.get("/result/auth/clientSecret/1"), omitted.toString());
            assertEquals(StoredValue.sha256(other.getBytes(StandardCharsets.UTF_8)),
                    omitted.path("/result/notes").path("sha256").asText(), "an ordinary value keeps its facts");
            List<String> masked = new ArrayList<>();
            line.path("masked").forEach(pointer -> masked.add(pointer.asText()));
            assertTrue(masked.contains("/input/omittedArguments/~1result~1password"), masked.toString());
            assertEquals(6, masked.size(), masked.toString());
            assertEquals(List.of(), Schemas.errors("decision-log-record.json", line), line.toString());
        }
    }

    /**
     * The allowed {@code project_work_submit} record of a call with this {@code result}, made from its input and from
     * the input as the PEP wrote it: the two ways a record is encoded.
     */
    private static List<DecisionRecord> records(Map<String, Object> result) {
        DecisionInput input = new DecisionInput(Optional.of("project_work_submit"),
                Optional.of(Map.of("runId", "run-1", "result", result)), List.of(), THREAD, Map.of());
        PolicyOutcome.Decided<Decision> allow = new PolicyOutcome.Decided<>(new Decision(true, List.of(),
                Obligations.NONE, "rev-1", 5));
        DecisionRecord plain = DecisionRecord.forCall(input, allow);
        return List.of(plain, DecisionRecord.forCall(input, WrittenInput.forCall(input), Optional.empty(), allow,
                plain.admission()));
    }

    private static OmittedArgument omitted(String value) {
        return OmittedArgument.ifLonger(value, 256).orElseThrow();
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
        for (DecisionRecord record : records(result)) {
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
