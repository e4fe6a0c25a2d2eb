package dev.gatehouse.gateway.policy.api;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.lang.UProperty;
import java.text.Normalizer;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
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
 * (folding can leave compatibility characters behind); default-ignorable code points and format characters (Cf, by
 * ICU's tables: the JDK's are older and miss e.g. U+0890 and U+13439…1343F, found by ArgumentKeysSweepTest)
 * dropped (zero-width space and joiners, soft hyphen, word joiner, BOM, variation selectors, Hangul fillers), and
 * so are control characters (Cc) that are not white space (NUL, BEL, ESC, DEL, C1 controls); every
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

    /**
     * Deepest nesting reported. The transport refuses deeper JSON long before this; should a deeper value still
     * arrive, its keys are not reported, and the policy denies a key it sees unreported (fail closed).
     */
    public static final int MAX_DEPTH = 512;

    /** The keys of {@code arguments} (maps and lists of plain Java values), in document order; none for others. */
    public static List<ArgumentKey> of(Object arguments) {
        List<ArgumentKey> keys = new ArrayList<>();
        // Depth-first in document order with an explicit stack, so no depth of input can overflow the Java stack.
        Deque<Iterator<Map.Entry<String, Object>>> stack = new ArrayDeque<>();
        stack.push(children(arguments, ""));
        while (!stack.isEmpty()) {
            Iterator<Map.Entry<String, Object>> next = stack.peek();
            if (!next.hasNext()) {
                stack.pop();
                continue;
            }
            Map.Entry<String, Object> child = next.next();
            if (child.getKey() != null) {
                keys.add((ArgumentKey) child.getValue());
                continue;
            }
            Object[] pathAndValue = (Object[]) child.getValue();
            if (stack.size() < MAX_DEPTH) {
                stack.push(children(pathAndValue[1], (String) pathAndValue[0]));
            }
        }
        return List.copyOf(keys);
    }

    /**
     * The children of {@code value} at {@code at}, in order: for a member, its key (an entry keyed "key") then its
     * value to descend into (an entry keyed {@code null}); for a list element, the element to descend into.
     */
    private static Iterator<Map.Entry<String, Object>> children(Object value, String at) {
        List<Map.Entry<String, Object>> out = new ArrayList<>();
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> member : map.entrySet()) {
                String key = String.valueOf(member.getKey());
                String path = at + "/" + pointerToken(key);
                out.add(new AbstractMap.SimpleImmutableEntry<>("key", new ArgumentKey(path, key, fold(key))));
                out.add(new AbstractMap.SimpleImmutableEntry<>(null, new Object[] {path, member.getValue()}));
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                out.add(new AbstractMap.SimpleImmutableEntry<>(null, new Object[] {at + "/" + i, list.get(i)}));
            }
        }
        return out.iterator();
    }

    /** {@code key} as one reference token of a JSON Pointer (RFC 6901: {@code ~} as {@code ~0}, {@code /} as {@code ~1}). */
    public static String pointerToken(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }

    /** The folded form of one member name. */
    public static String fold(String key) {
        String folded = Normalizer.normalize(
                UCharacter.foldCase(Normalizer.normalize(key, Normalizer.Form.NFKC), true), Normalizer.Form.NFKC);
        StringBuilder kept = new StringBuilder(folded.length());
        folded.codePoints().forEach(cp -> {
            // A control character that is not white space (NUL, BEL, ...) has no meaning in a name: dropped too.
            if (UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT)
                    || UCharacter.getType(cp) == UCharacterCategory.FORMAT
                    || UCharacter.getType(cp) == UCharacterCategory.CONTROL
                    && !UCharacter.hasBinaryProperty(cp, UProperty.WHITE_SPACE)) {
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
