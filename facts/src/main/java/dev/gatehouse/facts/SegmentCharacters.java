package dev.gatehouse.facts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Facts about the characters of wiki path segments, for the policy's name rule (docs/domain.md §7; decision input
 * {@code unicode}): for each segment of a confined path argument, and for each caller id the policy may build the
 * caller's subtree from ({@code logicalAgentId}, {@code sharesThreadAgent}: one segment each, taken whole), that
 * holds a character other than an ASCII letter, digit, {@code -}, {@code _}, {@code .} or space, the sorted, distinct
 * Unicode general categories of its characters other than {@code -}, {@code _}, {@code .} and space. Which categories
 * a name may use, and which id names the subtree, are the policy's decisions; this only reports them, in time linear
 * in the length of the strings.
 */
public final class SegmentCharacters {

    private static final String ASCII_NAME = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_. -";

    /** Two-letter abbreviations of {@link Character#getType(int)}, indexed by its value. */
    private static final String[] CATEGORIES = new String[31];

    static {
        CATEGORIES[Character.UNASSIGNED] = "Cn";
        CATEGORIES[Character.UPPERCASE_LETTER] = "Lu";
        CATEGORIES[Character.LOWERCASE_LETTER] = "Ll";
        CATEGORIES[Character.TITLECASE_LETTER] = "Lt";
        CATEGORIES[Character.MODIFIER_LETTER] = "Lm";
        CATEGORIES[Character.OTHER_LETTER] = "Lo";
        CATEGORIES[Character.NON_SPACING_MARK] = "Mn";
        CATEGORIES[Character.ENCLOSING_MARK] = "Me";
        CATEGORIES[Character.COMBINING_SPACING_MARK] = "Mc";
        CATEGORIES[Character.DECIMAL_DIGIT_NUMBER] = "Nd";
        CATEGORIES[Character.LETTER_NUMBER] = "Nl";
        CATEGORIES[Character.OTHER_NUMBER] = "No";
        CATEGORIES[Character.SPACE_SEPARATOR] = "Zs";
        CATEGORIES[Character.LINE_SEPARATOR] = "Zl";
        CATEGORIES[Character.PARAGRAPH_SEPARATOR] = "Zp";
        CATEGORIES[Character.CONTROL] = "Cc";
        CATEGORIES[Character.FORMAT] = "Cf";
        CATEGORIES[Character.PRIVATE_USE] = "Co";
        CATEGORIES[Character.SURROGATE] = "Cs";
        CATEGORIES[Character.DASH_PUNCTUATION] = "Pd";
        CATEGORIES[Character.START_PUNCTUATION] = "Ps";
        CATEGORIES[Character.END_PUNCTUATION] = "Pe";
        CATEGORIES[Character.CONNECTOR_PUNCTUATION] = "Pc";
        CATEGORIES[Character.OTHER_PUNCTUATION] = "Po";
        CATEGORIES[Character.MATH_SYMBOL] = "Sm";
        CATEGORIES[Character.CURRENCY_SYMBOL] = "Sc";
        CATEGORIES[Character.MODIFIER_SYMBOL] = "Sk";
        CATEGORIES[Character.OTHER_SYMBOL] = "So";
        CATEGORIES[Character.INITIAL_QUOTE_PUNCTUATION] = "Pi";
        CATEGORIES[Character.FINAL_QUOTE_PUNCTUATION] = "Pf";
    }

    private SegmentCharacters() {
    }

    /**
     * @param arguments  the call's arguments as its decision input carries them, as plain Java values or as their JSON
     *                   tree (non-object arguments have no paths; a path not sent, {@code null} there, has no
     *                   segments)
     * @param pathFields the row's confined path fields; values that are not strings are left to the schema check
     * @param subtreeIds the caller ids a subtree can be built from ({@link CallerFacts#subtreeIds()}), each one
     *                   segment; described only for a row with path fields, the only rows whose decision reads them
     * @return segment → categories, sorted by segment; empty when every segment is plain ASCII
     */
    public static Map<String, List<String>> of(Object arguments, Collection<String> pathFields,
            Collection<String> subtreeIds) {
        Map<String, List<String>> facts = new TreeMap<>();
        if (pathFields.isEmpty()) {
            return facts;
        }
        subtreeIds.forEach(id -> describeSegment(id, facts));
        for (String field : pathFields) {
            if (arguments instanceof Map<?, ?> args && args.get(field) instanceof String path) {
                describe(path, facts);
            } else if (arguments instanceof JsonNode args && args.path(field).isTextual()) {
                describe(args.get(field).textValue(), facts);
            }
        }
        return facts;
    }

    private static void describe(String path, Map<String, List<String>> facts) {
        int start = 0;
        while (start <= path.length()) {
            int end = path.indexOf('/', start);
            describeSegment(path.substring(start, end < 0 ? path.length() : end), facts);
            if (end < 0) {
                return;
            }
            start = end + 1;
        }
    }

    private static void describeSegment(String segment, Map<String, List<String>> facts) {
        if (!facts.containsKey(segment) && !plainAscii(segment)) {
            facts.put(segment, categories(segment));
        }
    }

    private static boolean plainAscii(String segment) {
        for (int i = 0; i < segment.length(); i++) {
            if (ASCII_NAME.indexOf(segment.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static List<String> categories(String segment) {
        Set<String> categories = new TreeSet<>();
        segment.codePoints().filter(cp -> "-_. ".indexOf(cp) < 0)
                .forEach(cp -> categories.add(CATEGORIES[Character.getType(cp)]));
        return List.copyOf(categories);
    }
}
