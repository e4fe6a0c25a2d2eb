package dev.gatehouse.gateway.policy.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import dev.gatehouse.gateway.policy.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.ArgumentKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole kind of the "identity key spelled differently" fault, swept over every Unicode code point (ICU's
 * tables): whatever a code point is, if it is a separator by docs/domain.md §6 (dash or connector punctuation, any
 * space, a format or default-ignorable character), inserted into {@code agentId} it must leave the key's meaning
 * {@code agentid} after {@link ArgumentKeys#fold} and the policy data's separator removal (the same replacement the
 * policy applies with strings.replace_n). And no visible letter or digit may vanish. Findings of the first sweep:
 * format characters newer than the JDK's tables (U+0890, U+0891, U+13439…U+1343F) survived the fold, and the
 * Unicode 16 dash U+10D6E was missing from the separators.
 */
class ArgumentKeysSweepTest {

    private static final List<String> separators = new ArrayList<>();

    @BeforeAll
    static void load() throws IOException {
        JsonNode identity = PolicyJson.MAPPER.readTree(TestBundle.policies().resolve("gatehouse/identity/data.json")
                .toFile());
        identity.path("ignored_separators").fieldNames().forEachRemaining(separators::add);
    }

    /** What the policy compares: the PEP's fold, then the data's separators removed. */
    static String meaning(String key) {
        String folded = ArgumentKeys.fold(key);
        for (String separator : separators) {
            folded = folded.replace(separator, "");
        }
        return folded;
    }

    static boolean separatorByMeaning(int cp) {
        int type = UCharacter.getType(cp);
        return type == UCharacter.DASH_PUNCTUATION || type == UCharacter.CONNECTOR_PUNCTUATION
                || type == UCharacter.SPACE_SEPARATOR || type == UCharacter.FORMAT
                || UCharacter.hasBinaryProperty(cp, UProperty.WHITE_SPACE)
                || UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT);
    }

    @Test
    void everySeparatorCodePointInsideAKeyLeavesItsMeaning() {
        List<String> missed = new ArrayList<>();
        int swept = 0;
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (!UCharacter.isDefined(cp) || !separatorByMeaning(cp) || Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
                continue;
            }
            String inside = "agent" + new String(Character.toChars(cp)) + "Id";
            if (!meaning(inside).equals("agentid")) {
                missed.add(String.format("U+%04X %s -> %s", cp, UCharacter.getName(cp), meaning(inside)));
            }
            swept++;
        }
        assertEquals(List.of(), missed, swept + " separator code points swept");
    }

    @Test
    void noLetterOrDigitVanishes() {
        List<String> vanished = new ArrayList<>();
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            // Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) are letters but default-ignorable and invisible: dropped
            // on purpose, like zero-width characters.
            if (UCharacter.isLetterOrDigit(cp) && !UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
                    && meaning("a" + new String(Character.toChars(cp)) + "b").equals("ab")) {
                vanished.add(String.format("U+%04X", cp));
            }
        }
        assertEquals(List.of(), vanished);
    }

    /** Found by EmbeddedPdpFaultTest: a recursive fold overflowed the stack on 5 000 levels of nesting. */
    @Test
    void deepArgumentsNeitherOverflowNorGoUnboundedAndKeepDocumentOrder() {
        java.util.Map<String, Object> deep = new java.util.HashMap<>();
        java.util.Map<String, Object> level = deep;
        for (int i = 0; i < 20_000; i++) {
            java.util.Map<String, Object> next = new java.util.HashMap<>();
            level.put("k", next);
            level = next;
        }
        assertEquals(ArgumentKeys.MAX_DEPTH, ArgumentKeys.of(deep).size());
        java.util.Map<String, Object> ordered = new java.util.LinkedHashMap<>();
        ordered.put("b", List.of(java.util.Map.of("x/y", 1)));
        ordered.put("a", 2);
        assertEquals(List.of(new ArgumentKeys.ArgumentKey("/b", "b", "b"),
                new ArgumentKeys.ArgumentKey("/b/0/x~1y", "x/y", "x/y"),
                new ArgumentKeys.ArgumentKey("/a", "a", "a")), ArgumentKeys.of(ordered));
        assertEquals("agentid", ArgumentKeys.fold("\u200b \uff21\uff27\uff25\uff2e\uff34\u00ad\uff29\uff24\t"));
        assertEquals("strasse", ArgumentKeys.fold("STRA\u00dfE"), "full case folding");
    }
}
