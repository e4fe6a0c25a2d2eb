package dev.gatehouse.gateway.policy.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import com.ibm.icu.text.SpoofChecker;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.facts.ArgumentKeys;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.support.Slow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 28: identity keys by UTS #39 skeleton (docs/domain.md §6). For every identity key of
 * policies/gatehouse/identity/data.json, in its folded and its camel-case spelling, the variants are generated from
 * Unicode's own data, independently of the fold: a combining mark (General_Category M; the Combining Diacritical
 * Marks at every position, every other mark at the start, the middle and the end), each letter replaced by each of its
 * confusables (every code point ICU's confusables data gives the letter's skeleton), and each blank or separating
 * character (White_Space, Default_Ignorable_Code_Point, format and separator categories, the Braille blank) inside.
 * Every variant must fold to the key (one of {@link ArgumentKeys#folds}; the whole sets), and the policy must deny it
 * as {@code identity_argument} (through the Wasm engine and the real bundle: the Combining Diacritical Marks, every
 * confusable, and the blanks in the middle of the key, sent as business data of {@code project_work_submit}, many per
 * decision; the denial names each key found). Keys that must pass still pass.
 */
@Slow
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdentityConfusablesTest {

    private static final String DENIAL = "identity comes from the session, not from arguments: ";
    /** Variants per decision: the policy's work is linear in the members (make policy-cost), so this only batches. */
    private static final int BATCH = 800;
    private static final SpoofChecker CONFUSABLES = new SpoofChecker.Builder().build();

    private EmbeddedPdp pdp;
    /** The identity keys of project tools (every tool's and the project toolkit's), as the data lists them. */
    private final List<String> keys = new ArrayList<>();
    /** Skeleton of a letter of some key → every other code point with that skeleton. */
    private final Map<String, List<Integer>> confusables = new HashMap<>();
    private List<Integer> marks;
    private List<Integer> blanks;

    @BeforeAll
    void start() throws IOException {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(TestBundle.freshBundle());
        configuration.setPoolSize(1);
        pdp = new EmbeddedPdp(configuration);
        JsonNode identity = PolicyJson.MAPPER.readTree(TestBundle.policies().resolve("gatehouse/identity/data.json")
                .toFile());
        identity.path("every_tool").fieldNames().forEachRemaining(keys::add);
        identity.path("by_toolkit").path("project").fieldNames().forEachRemaining(keys::add);

        Set<String> letterSkeletons = new HashSet<>();
        for (String key : keys) {
            for (String spelling : spellings(key)) {
                spelling.codePoints().forEach(cp -> letterSkeletons.add(skeleton(cp)));
            }
        }
        List<Integer> assigned = IntStream.rangeClosed(0, Character.MAX_CODE_POINT)
                .filter(cp -> UCharacter.isDefined(cp) && !(cp >= 0xD800 && cp <= 0xDFFF)).boxed().toList();
        for (int cp : assigned) {
            String skeleton = skeleton(cp);
            if (letterSkeletons.contains(skeleton)) {
                confusables.computeIfAbsent(skeleton, s -> new ArrayList<>()).add(cp);
            }
        }
        marks = assigned.stream().filter(cp -> {
            int type = UCharacter.getType(cp);
            return type == UCharacter.NON_SPACING_MARK || type == UCharacter.ENCLOSING_MARK
                    || type == UCharacter.COMBINING_SPACING_MARK;
        }).toList();
        blanks = assigned.stream().filter(IdentityConfusablesTest::blank).toList();
    }

    /** Blank or invisible by Unicode's properties, or the Braille blank (a symbol drawn as nothing). */
    private static boolean blank(int cp) {
        int type = UCharacter.getType(cp);
        return UCharacter.hasBinaryProperty(cp, UProperty.WHITE_SPACE)
                || UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
                || type == UCharacter.FORMAT || type == UCharacter.SPACE_SEPARATOR
                || type == UCharacter.LINE_SEPARATOR || type == UCharacter.PARAGRAPH_SEPARATOR || cp == 0x2800;
    }

    @Test
    void everyCombiningMarkAtEveryPositionOfEveryKeyFoldsToTheKeyAndIsDenied() {
        Map<String, String> variants = new LinkedHashMap<>();
        Map<String, String> denied = new LinkedHashMap<>();
        for (String key : keys) {
            for (String spelling : spellings(key)) {
                int[] cps = spelling.codePoints().toArray();
                for (int at = 0; at <= cps.length; at++) {
                    boolean edgeOrMiddle = at == 0 || at == cps.length / 2 || at == cps.length;
                    for (int mark : marks) {
                        // Combining Diacritical Marks at every position, through the policy; every other mark where
                        // it can compose with a letter before it, stand alone, or trail.
                        boolean diacritical = mark >= 0x0300 && mark <= 0x036F;
                        if (diacritical || edgeOrMiddle) {
                            String variant = insert(cps, at, mark);
                            variants.put(variant, key);
                            if (diacritical) {
                                denied.put(variant, key);
                            }
                        }
                    }
                }
            }
        }
        assertFoldsToItsKey(variants);
        assertDenied(denied);
        assertTrue(variants.size() > 100_000, "generated " + variants.size());
    }

    @Test
    void everyConfusableOfEveryLetterOfEveryKeyFoldsToTheKeyAndIsDenied() {
        Map<String, String> variants = new LinkedHashMap<>();
        for (String key : keys) {
            for (String spelling : spellings(key)) {
                int[] cps = spelling.codePoints().toArray();
                for (int at = 0; at < cps.length; at++) {
                    for (int confusable : confusables.get(skeleton(cps[at]))) {
                        if (confusable != cps[at]) {
                            int[] replaced = cps.clone();
                            replaced[at] = confusable;
                            variants.put(new String(replaced, 0, replaced.length), key);
                        }
                    }
                }
            }
        }
        assertFoldsToItsKey(variants);
        assertDenied(variants);
        assertTrue(variants.size() > 5_000, "generated " + variants.size());
        // The homoglyphs are among them.
        assertTrue(variants.keySet().containsAll(List.of("agent\u0131d", "\u0430gentId")));
    }

    @Test
    void everyBlankInsideEveryKeyFoldsToTheKeyAndIsDenied() {
        Map<String, String> variants = new LinkedHashMap<>();
        Map<String, String> denied = new LinkedHashMap<>();
        for (String key : keys) {
            for (String spelling : spellings(key)) {
                int[] cps = spelling.codePoints().toArray();
                for (int at = 1; at < cps.length; at++) {
                    for (int blank : blanks) {
                        String variant = insert(cps, at, blank);
                        variants.put(variant, key);
                        if (at == cps.length / 2) {
                            denied.put(variant, key);
                        }
                    }
                }
            }
        }
        assertFoldsToItsKey(variants);
        assertDenied(denied);
        assertTrue(variants.containsKey("agent\u2800Id"));
    }

    @Test
    void keysThatMustPassStillPass() {
        List<String> business = List.of("agentName", "agent_name", "title", "summary", "notes", "filesChanged",
                "tokenCount", "rootCause", "clientName", "identity", "agent", "\u540d\u524d", "\u30bf\u30a4\u30c8\u30eb",
                "\u0437\u0430\u0433\u043e\u043b\u043e\u0432\u043e\u043a", "\u03c4\u03af\u03c4\u03bb\u03bf\u03c2",
                "\u0639\u0646\u0648\u0627\u0646", "\u0928\u093e\u092e", "r\u00e9sum\u00e9", "stra\u00dfe");
        Map<String, Object> result = new LinkedHashMap<>();
        business.forEach(key -> result.put(key, "x"));
        assertEquals(List.of(), codes("project_work_submit", submit(result)));
        for (String key : List.of("threadId", "thread_id", "THREAD-ID", "thr\u0435adId", "thread\u2800Id")) {
            List<String> codes = codes("t3_thread_send", Map.of("message", "m", key, "t2"));
            assertTrue(!codes.contains("identity_argument"), "thread tools take thread ids as business data: " + key
                    + " " + codes);
        }
    }

    /** The data lists each key as its own fold, and the fold of its camel-case spelling. */
    @Test
    void theDataListsEachKeyInItsFold() {
        for (String key : keys) {
            assertEquals(key, ArgumentKeys.fold(key));
            assertEquals(key, ArgumentKeys.fold(IdentityKeyVariantsTest.CAMEL.getOrDefault(key, key)));
        }
    }

    private static Set<String> spellings(String key) {
        return new LinkedHashSet<>(List.of(key, IdentityKeyVariantsTest.CAMEL.getOrDefault(key, key)));
    }

    private static String skeleton(int cp) {
        return CONFUSABLES.getSkeleton(new String(Character.toChars(cp)));
    }

    private static String insert(int[] cps, int at, int inserted) {
        int[] out = new int[cps.length + 1];
        System.arraycopy(cps, 0, out, 0, at);
        out[at] = inserted;
        System.arraycopy(cps, at, out, at + 1, cps.length - at);
        return new String(out, 0, out.length);
    }

    private static void assertFoldsToItsKey(Map<String, String> variants) {
        List<String> missed = new ArrayList<>();
        variants.forEach((variant, key) -> {
            if (!ArgumentKeys.folds(variant).contains(key)) {
                missed.add(escape(variant) + " -> " + escape(String.join(" | ", ArgumentKeys.folds(variant))));
            }
        });
        assertEquals(List.of(), missed.subList(0, Math.min(50, missed.size())), missed.size() + " missed");
    }

    /** Sends the variants as business data, {@link #BATCH} per decision; the denial must name every one. */
    private void assertDenied(Map<String, String> variants) {
        List<String> all = List.copyOf(variants.keySet());
        List<String> missed = new ArrayList<>();
        for (int from = 0; from < all.size(); from += BATCH) {
            Map<String, Object> result = new LinkedHashMap<>();
            all.subList(from, Math.min(all.size(), from + BATCH)).forEach(variant -> result.put(variant, "a2"));
            Decision decision = decide("project_work_submit", submit(result));
            Set<String> named = decision.reasons().stream().filter(r -> r.code().equals("identity_argument"))
                    .findFirst().map(r -> new TreeSet<>(Arrays.asList(r.message().substring(DENIAL.length())
                            .split(", ")))).orElse(new TreeSet<>());
            result.keySet().stream().filter(variant -> !named.contains(variant)).map(IdentityConfusablesTest::escape)
                    .forEach(missed::add);
        }
        assertEquals(List.of(), missed.subList(0, Math.min(50, missed.size())), missed.size() + " not denied of "
                + all.size());
    }

    private static Map<String, Object> submit(Map<String, Object> result) {
        return Map.of("runId", "r1", "runRevision", "run:1", "assignmentRevision", "position:1", "result", result);
    }

    private Decision decide(String tool, Map<String, Object> arguments) {
        return ((PolicyOutcome.Decided<Decision>) pdp.decide(Facts.call(tool, arguments))).value();
    }

    private List<String> codes(String tool, Map<String, Object> arguments) {
        return decide(tool, arguments).reasons().stream().map(Decision.Reason::code).toList();
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(cp -> b.append(cp < 0x20 || cp > 0x7e ? String.format("\\u{%04x}", cp)
                : String.valueOf((char) cp)));
        return b.toString();
    }
}
