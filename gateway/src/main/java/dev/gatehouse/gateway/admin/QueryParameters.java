package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import java.util.List;
import java.util.Optional;

/** The reading of a search's text parameters that the decision and notice queries share. */
final class QueryParameters {

    /** The longest text a filter matches exactly, in characters. */
    static final int MAX_TEXT = 512;

    private QueryParameters() {
    }

    /** A filter's text, stripped; empty when blank; a problem for {@code field} when longer than {@link #MAX_TEXT}. */
    static Optional<String> text(String field, @Nullable String text, List<FieldProblem> problems) {
        String value = blankToNull(text);
        if (value != null && value.length() > MAX_TEXT) {
            problems.add(FieldProblem.invalid(field, "At most " + MAX_TEXT + " characters."));
            return Optional.empty();
        }
        return Optional.ofNullable(value);
    }

    /** A page size: {@code fallback} when absent or blank; a problem for {@code limit} unless 1 to {@code max}. */
    static int limit(@Nullable String text, int fallback, int max, List<FieldProblem> problems) {
        String value = blankToNull(text);
        if (value == null) {
            return fallback;
        }
        if (!value.matches("[0-9]{1,4}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > max) {
            problems.add(FieldProblem.invalid("limit", "A limit is a number from 1 to " + max + "."));
            return fallback;
        }
        return Integer.parseInt(value);
    }

    /** The value stripped, or null when absent or blank. */
    static String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
