package dev.gatehouse.gateway.policy.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.facts.ArgumentKeys;
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
 * policy applies with strings.replace_n). And no visible letter or digit may vanish unless it looks like punctuation.
 * Findings of the first sweep: format characters newer than the JDK's tables (U+0890, U+0891, U+13439…U+1343F)
 * survived the fold, and the Unicode 16 dash U+10D6E was missing from the separators. Of the confusable fold's: the
 * em dash and its variants (U+2014, U+2015, U+FE31, U+FE58), whose skeleton is the katakana prolonged sound mark (a
 * letter), stayed in the key until a symbol was read only as the Latin letters it looks like.
 */
class ArgumentKeysSweepTest {

    private static final List<String> separators = new ArrayList<>();
    private static final SpoofChecker CONFUSABLES = new SpoofChecker.Builder().build();
    private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();
    private static final Normalizer2 NFD = Normalizer2.getNFDInstance();

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

    /**
     * A letter or digit vanishes from a key only when it looks like punctuation or nothing: what is left of it after NFKC
     * and dropping combining marks is nothing (a spacing form of a mark, U+037A), or has a UTS #39 skeleton that, as
     * written and case-folded, holds no letter or digit (the modifier letter apostrophe U+02BC, the Arabic-Indic zero
     * that looks like a dot, the halfwidth katakana no that looks like a slash). Then it separates, like the punctuation
     * it looks like. Invisible fillers (default-ignorable, such as the Hangul fillers) are dropped on purpose.
     */
    @Test
    void noLetterOrDigitVanishesUnlessItLooksLikePunctuation() {
        List<String> vanished = new ArrayList<>();
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            if (UCharacter.isLetterOrDigit(cp) && !UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
                    && meaning("a" + new String(Character.toChars(cp)) + "b").equals("ab") && looksLikeALetter(cp)) {
                vanished.add(String.format("U+%04X", cp));
            }
        }
        assertEquals(List.of(), vanished);
    }

    private static boolean looksLikeALetter(int cp) {
        String left = NFD.normalize(NFKC.normalize(new String(Character.toChars(cp)))).codePoints()
                .filter(c -> UCharacter.getType(c) != UCharacter.NON_SPACING_MARK
                        && UCharacter.getType(c) != UCharacter.ENCLOSING_MARK
                        && UCharacter.getType(c) != UCharacter.COMBINING_SPACING_MARK)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return !left.isBlank() && CONFUSABLES.getSkeleton(left).codePoints().anyMatch(UCharacter::isLetterOrDigit)
                && CONFUSABLES.getSkeleton(UCharacter.foldCase(left, true)).codePoints()
                        .anyMatch(UCharacter::isLetterOrDigit);
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
                new ArgumentKeys.ArgumentKey("/b/0/x~1y", "x/y", "xy"),
                new ArgumentKeys.ArgumentKey("/a", "a", "a")), ArgumentKeys.of(ordered));
        assertEquals("agentid", ArgumentKeys.fold("\u200b \uff21\uff27\uff25\uff2e\uff34\u00ad\uff29\uff24\t"));
        assertEquals("strasse", ArgumentKeys.fold("STRA\u00dfE"), "full case folding");
    }
}
