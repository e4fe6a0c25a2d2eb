package dev.gatehouse.gateway.mcp;

import dev.gatehouse.facts.Modes;
import dev.gatehouse.facts.VocabularyName;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code T3-Mode-Limit: <runtime>/<interaction>} (docs/domain.md §1). Only the syntax is checked here: exactly
 * one header value, two {@link VocabularyName words} separated by one {@code /}, with no space inside (surrounding
 * spaces and tabs are HTTP's optional white space and are not part of the value). The two words are passed on
 * exactly as received; whether each names a mode of its axis ({@code mode_limit_unknown}) and whom the header narrows
 * are the policy's decisions, and it never lets the header widen a limit.
 */
final class ModeLimitHeader {

    /** The header name (HTTP header names are case-insensitive). */
    public static final String NAME = "T3-Mode-Limit";

    private ModeLimitHeader() {
    }

    /** Thrown for a header that is present but not exactly one {@code <word>/<word>}; answered with HTTP 400. */
    public static final class Malformed extends Exception {
        public Malformed() {
            super("invalid_mode_limit", null, false, false);
        }
    }

    /**
     * @param values every value of the header in the request (a repeated header is malformed)
     * @return the two words, runtime first, or empty when the header is absent
     * @throws Malformed when present but not one {@code <word>/<word>} value
     */
    public static Optional<Modes> parse(List<String> values) throws Malformed {
        if (values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() != 1) {
            throw new Malformed();
        }
        String[] parts = withoutOptionalWhiteSpace(values.get(0)).split("/", -1);
        if (parts.length != 2 || !VocabularyName.wellFormed(parts[0]) || !VocabularyName.wellFormed(parts[1])) {
            throw new Malformed();
        }
        return Optional.of(new Modes(parts[0], parts[1]));
    }

    /** {@code value} without leading and trailing spaces and tabs (RFC 9110 §5.6.3 OWS), and nothing else. */
    private static String withoutOptionalWhiteSpace(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return value.substring(start, end);
    }
}
