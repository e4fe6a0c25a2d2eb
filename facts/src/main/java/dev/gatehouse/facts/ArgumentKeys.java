package dev.gatehouse.facts;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.lang.UProperty;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import com.ibm.icu.text.UTF16;
import com.ibm.icu.util.ULocale;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;

/**
 * Every member name of every object in a tool call's arguments, at any depth, with the form the policy matches
 * identity keys by (docs/domain.md §6; schemas/decision-input.json {@code argumentKeys}). Rego has no Unicode
 * normalisation or confusables data, so the PEP folds and the policy decides: it compares each folded form with the
 * identity key list of its data (held in folded form). Nothing here knows which keys are identity keys.
 *
 * <p>{@link #fold} is also how the JSON-RPC guard tells protocol member names from their look-alikes: one fold for
 * every name the gateway compares by meaning. Two names fold alike when they read alike, whatever their case, script,
 * accents, compatibility forms or invisible and blank characters:
 * <ol>
 * <li>Unicode NFKC; default-ignorable code points dropped (zero-width characters, joiners, soft hyphen, variation
 * selectors, Hangul fillers); canonical decomposition (NFD); combining marks (General_Category M) dropped, so
 * {@code agentI\u0307d}, {@code AgentId\u0301} and {@code agent\u0301Id} lose their accents;</li>
 * <li>each code point read through the UTS #39 confusable skeleton (ICU's confusables data, {@link SpoofChecker}), with
 * case folding, twice ({@code М} → {@code M} → {@code m} → {@code rn}), keeping only the letters and digits of the
 * result ({@link #readings}): Cyrillic {@code а}, Greek {@code ν}, the dotless {@code ı}, {@code 0} and the like read as
 * Latin letters (so does a symbol that looks like them, the vertical line as {@code l}), and everything else that is
 * not a letter or digit (white space, punctuation, symbols, blank-looking ones such as U+2800 included), or is a
 * letter that looks like punctuation, reads as nothing, a separator. Which code points are letters and digits is
 * Unicode's General_Category, not a list of ours;</li>
 * <li>the two letters that case folding and the confusables data join, {@code l} and {@code i} (capital {@code I} looks
 * like {@code l} and means {@code i}), are one letter, written {@code i};</li>
 * <li>{@code rn}, the skeleton of {@code m}, is written {@code m}: the same equivalence, easier to read.</li>
 * </ol>
 * A name whose characters look like other letters than NFKC makes them mean (the long s {@code ſ} looks like
 * {@code f}; the spacing mark U+0C02 looks like {@code o}) is reported a second time, with its {@link #lookFold}: the
 * policy denies a key when any of its forms is an identity key.
 */
public final class ArgumentKeys {

    private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();
    private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();
    private static final Normalizer2 NFD = Normalizer2.getNFDInstance();
    /** UTS #39 confusable skeletons (ICU's confusables data); immutable once built, so shared by all threads. */
    private static final SpoofChecker CONFUSABLES = new SpoofChecker.Builder().build();
    /**
     * {@link #readings} of the Basic Multilingual Plane's code points, filled as they are met: reading a character
     * through ICU's skeletons is most of a fold's time, and almost every name is ASCII. Bounded (one entry per BMP
     * code point); other planes are read each time.
     */
    private static final AtomicReferenceArray<List<String>> BMP_READINGS = new AtomicReferenceArray<>(0x10000);
    /** The primary reading of each ASCII code point, worked out once for the short cut most names take. */
    private static final String[] ASCII_READINGS = IntStream.range(0, 0x80)
            .mapToObj(cp -> computedReadings(cp).get(0)).toArray(String[]::new);

    private ArgumentKeys() {
    }

    /**
     * One member name.
     *
     * @param path   JSON Pointer (RFC 6901) to the member
     * @param key    the member name as received
     * @param folded one folded form of the member name ({@link #folds}: a name is reported once per form)
     */
    public record ArgumentKey(String path, String key, String folded) {
        public ArgumentKey {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(folded, "folded");
        }
    }

    /**
     * Deepest nesting reported. The transport refuses deeper JSON long before this; should a deeper value still
     * arrive, its keys are not reported, and the policy denies a key it sees unreported (fail closed).
     */
    public static final int MAX_DEPTH = 512;

    /**
     * The keys of {@code arguments} (maps and lists of plain Java values), in document order; none for others. A
     * call's keys come from the one walk over its arguments ({@link ArgumentFacts#of}); this is that walk over values
     * given as they are sent ({@link ArgumentWalk#given}).
     */
    public static List<ArgumentKey> of(Object arguments) {
        return ArgumentWalk.given(arguments).keys();
    }

    /** {@code key} as one reference token of a JSON Pointer (RFC 6901: {@code ~} as {@code ~0}, {@code /} as {@code ~1}). */
    public static String pointerToken(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** The folded form of one member name, as described on {@link ArgumentKeys}. */
    public static String fold(String name) {
        return skeleton(name).replace("rn", "m");
    }

    /**
     * Every form a member name is reported with: its {@link #fold}, and its {@link #lookFold} when that differs. The
     * policy takes the key for an identity key when any of them is one.
     */
    public static List<String> folds(String name) {
        String meaning = fold(name);
        if (isAscii(name)) {
            return List.of(meaning); // ASCII looks as it means
        }
        String look = lookFold(name);
        return meaning.equals(look) ? List.of(meaning) : List.of(meaning, look);
    }

    /**
     * The fold of what a name's characters look like before compatibility normalisation: each code point (canonically
     * decomposed, default-ignorable ones dropped) that looks like Latin letters or digits (its skeleton, read as in
     * {@link #fold}) reads as them, and any other as its {@link #fold}. It differs from the fold only where NFKC changes
     * what a character looks like, or a mark looks like a letter: the long s {@code ſ} looks like {@code f} and means
     * {@code s}, the spacing mark U+0C02 looks like {@code o} and is dropped as a mark, the ogonek U+02DB looks like
     * {@code i} and means a space and a mark.
     */
    public static String lookFold(String name) {
        if (isAscii(name)) {
            return fold(name); // ASCII looks as it means
        }
        StringBuilder look = new StringBuilder();
        String kept = withoutIgnorables(name);
        NFD.normalize(kept).codePoints().forEach(cp -> {
            String character = UTF16.valueOf(cp);
            String looks = lettersAndDigits(character);
            look.append(isAscii(looks) ? looks : skeleton(character));
        });
        return look.toString().replace("rn", "m");
    }

    /**
     * {@link #fold} before {@code rn} is written {@code m}: the primary readings of the name's code points, one after
     * the other. The form {@link #looksLike} compares with.
     */
    public static String skeleton(String name) {
        StringBuilder folded = new StringBuilder(name.length());
        if (isAscii(name)) { // most names: unchanged by NFKC and NFD, no default-ignorable code point or mark
            for (int i = 0; i < name.length(); i++) {
                folded.append(ASCII_READINGS[name.charAt(i)]);
            }
        } else {
            codePoints(name).forEach(cp -> folded.append(readings(cp).get(0)));
        }
        return folded.toString();
    }

    /**
     * True when some reading of each code point of {@code name} spells {@code skeleton} (a {@link #skeleton}): besides
     * the one the fold takes, a code point may be read as its case fold or its capital looks ({@link #readings}), so a
     * Greek capital {@code Ν} reads as {@code n} and as {@code v}.
     */
    public static boolean looksLike(String name, String skeleton) {
        Set<Integer> reachable = Set.of(0);
        for (int cp : codePoints(name).toArray()) {
            Set<Integer> next = new HashSet<>();
            for (int offset : reachable) {
                for (String reading : readings(cp)) {
                    if (skeleton.startsWith(reading, offset)) {
                        next.add(offset + reading.length());
                    }
                }
            }
            if (next.isEmpty()) {
                return false;
            }
            reachable = next;
        }
        return reachable.contains(skeleton.length());
    }

    /** NFKC, default-ignorable code points dropped, canonically decomposed, combining marks dropped; case kept. */
    private static IntStream codePoints(String name) {
        if (isAscii(name)) {
            return name.chars();
        }
        return NFD.normalize(withoutIgnorables(NFKC.normalize(name))).codePoints().filter(cp -> !isMark(cp));
    }

    private static String withoutIgnorables(String name) {
        return name.codePoints().filter(cp -> !UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    private static boolean isMark(int cp) {
        int type = UCharacter.getType(cp);
        return type == UCharacterCategory.NON_SPACING_MARK || type == UCharacterCategory.COMBINING_SPACING_MARK
                || type == UCharacterCategory.ENCLOSING_MARK;
    }

    /**
     * The letters and digits one code point may be read as, the one {@link #fold} takes first: its look as written,
     * else (when that is not ASCII) its case fold's, else its capital's, whichever is ASCII first; then the other
     * ASCII ones. A code point that is no letter or digit (General_Category L or Nd: a space, separator, symbol, blank
     * or not, or punctuation) reads as the Latin letters it looks like, if any, else as {@code ""}: it separates; so
     * does a letter that looks like punctuation (its skeleton holds no letter or digit, such as the modifier letter
     * apostrophe U+02BC). Worked out once per code point of the Basic Multilingual Plane and kept.
     */
    static List<String> readings(int codePoint) {
        if (codePoint >= BMP_READINGS.length()) {
            return computedReadings(codePoint);
        }
        List<String> readings = BMP_READINGS.get(codePoint);
        if (readings == null) {
            readings = computedReadings(codePoint);
            BMP_READINGS.set(codePoint, readings); // the same value whoever computes it, so a race is harmless
        }
        return readings;
    }

    /** {@link #readings} worked out through ICU. */
    static List<String> computedReadings(int codePoint) {
        String character = UTF16.valueOf(codePoint);
        if (!UCharacter.isLetterOrDigit(codePoint)) {
            // A symbol or punctuation that looks like Latin letters reads as them (the vertical line as l, the
            // intersection as n); any other separates, even when its skeleton is a letter of another script (an em
            // dash looks like the katakana prolonged sound mark).
            String looks = lettersAndDigits(character);
            return List.of(isAscii(looks) ? looks : "");
        }
        String own = lettersAndDigits(character);
        String folded = lettersAndDigits(UCharacter.foldCase(character, true));
        String capital = lettersAndDigits(UCharacter.toUpperCase(ULocale.ROOT, character));
        Set<String> readings = new LinkedHashSet<>();
        readings.add(isAscii(own) ? own : isAscii(folded) ? folded : isAscii(capital) ? capital : own);
        for (String other : List.of(own, folded, capital)) {
            if (isAscii(other)) {
                readings.add(other);
            }
        }
        return List.copyOf(readings);
    }

    /**
     * Skeleton, case fold, skeleton again, case fold ({@code М} → {@code M} → {@code m} → {@code rn}); letters and
     * digits only; {@code l} written {@code i}.
     */
    private static String lettersAndDigits(String s) {
        String skeleton = NFKC_CASEFOLD.normalize(CONFUSABLES.getSkeleton(
                NFKC_CASEFOLD.normalize(CONFUSABLES.getSkeleton(s))));
        StringBuilder kept = new StringBuilder();
        NFD.normalize(skeleton).codePoints().filter(UCharacter::isLetterOrDigit)
                .forEach(cp -> kept.appendCodePoint(cp == 'l' ? 'i' : cp));
        return kept.toString();
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return !s.isEmpty();
    }
}
