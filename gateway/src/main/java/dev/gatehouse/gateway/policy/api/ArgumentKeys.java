package dev.gatehouse.gateway.policy.api;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every member name of every object in a tool call's arguments, at any depth, with the form the policy matches
 * identity keys by (docs/domain.md §6; schemas/decision-input.json {@code argumentKeys}). Rego has no Unicode
 * normalisation, so the PEP folds and the policy decides: it removes the separators its own data lists
 * ({@code identity.ignored_separators}) and compares with the identity key list. Nothing here knows which keys are
 * identity keys.
 *
 * <p>The fold, in this order: NFKC; full case folding (ICU {@link UCharacter#foldCase(String, boolean)}); NFKC again
 * (folding can leave compatibility characters behind); default-ignorable code points and format characters (Cf)
 * dropped (zero-width space and joiners, soft hyphen, word joiner, BOM, variation selectors, Hangul fillers); every
 * Unicode white-space character as one U+0020; leading and trailing spaces trimmed.
 */
public final class ArgumentKeys {

    private ArgumentKeys() {
    }

    /**
     * One member name.
     *
     * @param path   JSON Pointer (RFC 6901) to the member
     * @param key    the member name as received
     * @param folded the member name folded as described on {@link ArgumentKeys}
     */
    public record ArgumentKey(String path, String key, String folded) {
        public ArgumentKey {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(folded, "folded");
        }
    }

    /** The keys of {@code arguments} (maps and lists of plain Java values), in document order; none for others. */
    public static List<ArgumentKey> of(Object arguments) {
        List<ArgumentKey> keys = new ArrayList<>();
        visit(arguments, "", keys);
        return List.copyOf(keys);
    }

    private static void visit(Object value, String at, List<ArgumentKey> keys) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> member : map.entrySet()) {
                String key = String.valueOf(member.getKey());
                String path = at + "/" + key.replace("~", "~0").replace("/", "~1");
                keys.add(new ArgumentKey(path, key, fold(key)));
                visit(member.getValue(), path, keys);
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                visit(list.get(i), at + "/" + i, keys);
            }
        }
    }

    /** The folded form of one member name. */
    public static String fold(String key) {
        String folded = Normalizer.normalize(
                UCharacter.foldCase(Normalizer.normalize(key, Normalizer.Form.NFKC), true), Normalizer.Form.NFKC);
        StringBuilder kept = new StringBuilder(folded.length());
        folded.codePoints().forEach(cp -> {
            if (UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
                    || Character.getType(cp) == Character.FORMAT) {
                return;
            }
            kept.appendCodePoint(UCharacter.hasBinaryProperty(cp, UProperty.WHITE_SPACE) ? ' ' : cp);
        });
        int start = 0;
        int end = kept.length();
        while (start < end && kept.charAt(start) == ' ') {
            start++;
        }
        while (end > start && kept.charAt(end - 1) == ' ') {
            end--;
        }
        return kept.substring(start, end);
    }
}
