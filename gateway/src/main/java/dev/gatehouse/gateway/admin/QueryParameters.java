package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The reading of a search's parameters that the decision and notice queries share, in the admin API and the console. */
public final class QueryParameters {

    /** The longest text a filter matches exactly, in characters. */
    static final int MAX_TEXT = 512;

    private QueryParameters() {
    }

    /**
     * The first value of each query parameter, in the order given ({@code ""} for one given empty; a repeated one
     * counts once here, and {@link #strict} refuses it).
     */
    public static Map<String, String> firstValues(HttpRequest<?> request) {
        Map<String, String> first = new LinkedHashMap<>();
        request.getParameters().forEach((name, values) -> {
            if (!values.isEmpty()) {
                first.put(name, values.get(0));
            }
        });
        return first;
    }

    /** What a search answers a parameter given with an empty or blank value. */
    public static final String EMPTY = "Given without a value; leave the parameter out instead.";

    /**
     * A search parameter's value, stripped; empty when absent (null); a problem for {@code field} when given without a
     * value ({@code ?agent=}, {@link #blank}), which reading as no filter would widen the search: an empty value is
     * never a filter.
     */
    public static Optional<String> given(String field, @Nullable String text, List<FieldProblem> problems) {
        if (text != null && blank(text)) {
            problems.add(FieldProblem.invalid(field, EMPTY));
            return Optional.empty();
        }
        return Optional.ofNullable(text).map(String::strip);
    }

    /**
     * Whether {@code text} is without a value: empty, or every character white space, a separator, a control or
     * another invisible character ({@code %C2%A0}, {@code %E2%80%8B}, {@code %E3%80%80}, {@code %09}), by the rule that
     * also keeps them out of an outside agent's issuer.
     */
    public static boolean blank(String text) {
        return text.codePoints().allMatch(InvisibleCharacters::invisible);
    }

    /** A filter's text as {@link #given}; a problem for {@code field} when longer than {@link #MAX_TEXT}. */
    static Optional<String> text(String field, @Nullable String text, List<FieldProblem> problems) {
        Optional<String> value = given(field, text, problems);
        if (value.isPresent() && value.get().length() > MAX_TEXT) {
            problems.add(FieldProblem.invalid(field, "At most " + MAX_TEXT + " characters."));
            return Optional.empty();
        }
        return value;
    }

    /** A page size: {@code fallback} when absent; a problem for {@code limit} when empty or not 1 to {@code max}. */
    static int limit(@Nullable String text, int fallback, int max, List<FieldProblem> problems) {
        String value = given("limit", text, problems).orElse(null);
        if (value == null) {
            return fallback;
        }
        if (!value.matches("[0-9]{1,4}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > max) {
            problems.add(FieldProblem.invalid("limit", "A limit is a number from 1 to " + max + "."));
            return fallback;
        }
        return Integer.parseInt(value);
    }

    /** The longest parameter name a problem quotes, in code points. */
    static final int MAX_NAME = 64;

    /**
     * {@code parsed}, refused also for what is wrong with the request's query string apart from its values: a name
     * not in {@code known} (a typo such as {@code outcom=denied} would otherwise widen the search silently) and a name
     * given more than once (which of its values counts would be a guess). Those problems come first, in the order of
     * the query string, each for its name (quoted at most {@value #MAX_NAME} code points, never half a character).
     *
     * @param known the names the search takes, in the order its message lists them; none for a lookup by id
     */
    public static <T> AdminResult<T> strict(HttpRequest<?> request, List<String> known, AdminResult<T> parsed) {
        return strict(request, known, "search", parsed);
    }

    /**
     * As {@link #strict(HttpRequest, List, AdminResult)}, the messages naming what reads the parameters.
     *
     * @param what what takes the parameters, as the messages name it ({@code "search"}, {@code "page"},
     *             {@code "lookup"})
     */
    public static <T> AdminResult<T> strict(HttpRequest<?> request, List<String> known, String what,
            AdminResult<T> parsed) {
        List<FieldProblem> problems = new ArrayList<>();
        request.getParameters().forEach((name, values) -> {
            String quoted = name.codePointCount(0, name.length()) > MAX_NAME
                    ? name.substring(0, name.offsetByCodePoints(0, MAX_NAME)) + "…" : name;
            if (!known.contains(name)) {
                problems.add(FieldProblem.invalid(quoted, known.isEmpty() ? "Not a parameter; this request takes none."
                        : "Not a parameter of this " + what + "; it takes " + known.stream()
                                .map(each -> "\"" + each + "\"").collect(Collectors.joining(", ")) + "."));
            } else if (values.size() > 1) {
                problems.add(FieldProblem.invalid(quoted, "Given " + values.size()
                        + " times; a " + what + " takes one value per parameter."));
            }
        });
        if (problems.isEmpty()) {
            return parsed;
        }
        if (parsed instanceof AdminResult.Refused<T> refused) {
            problems.addAll(refused.problems());
        }
        return new AdminResult.Refused<>(problems);
    }

    /** The value stripped, or null when absent or blank. */
    static String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
