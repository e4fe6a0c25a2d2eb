package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.FieldProblem;
import dev.gatehouse.gateway.admin.QueryParameters;
import io.micronaut.http.HttpRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A console form as it was sent, and why it was refused. Before its values are read a form's shape is checked
 * ({@link #shape}): a field the form does not have (a misspelt or stale field would otherwise be dropped silently) and
 * a checkbox sent with another value than {@value #CHECKED}, the only one a ticked box sends (an unticked one is left
 * out), are refused, so that {@code wikiRead=maybe} is never taken as "off". Field messages for a refused admin
 * request are keyed by the form field's name: the admin API's name, with the settings' {@code project.} prefix
 * dropped (the forms are flat).
 */
final class ConsoleForms {

    /** What a ticked checkbox sends (a checkbox without a {@code value} attribute). */
    static final String CHECKED = "on";
    /** The longest field name a problem quotes, in code points. */
    private static final int MAX_NAME = 64;

    private ConsoleForms() {
    }

    static Map<String, String> problems(AdminResult<?> result) {
        Map<String, String> problems = new LinkedHashMap<>();
        if (result instanceof AdminResult.Refused<?> refused) {
            for (FieldProblem problem : refused.problems()) {
                problems.merge(problem.field().replaceFirst("^project\\.", ""), problem.message(),
                        (a, b) -> a + " " + b);
            }
        }
        return problems;
    }

    /**
     * What is wrong with the form's shape, a problem per field: one not in {@code fields} (the CSRF token's is every
     * form's), a checkbox of {@code checkboxes} with a value other than {@value #CHECKED}.
     */
    static List<FieldProblem> shape(Map<String, String> form, List<String> fields, List<String> checkboxes) {
        List<FieldProblem> problems = new ArrayList<>();
        form.forEach((name, value) -> {
            if (!fields.contains(name) && !checkboxes.contains(name) && !name.equals(ConsolePages.CSRF_FIELD)) {
                String quoted = name.codePointCount(0, name.length()) > MAX_NAME
                        ? name.substring(0, name.offsetByCodePoints(0, MAX_NAME)) + "…" : name;
                problems.add(invalid(quoted, "Not a field of this form; nothing was saved."));
            } else if (checkboxes.contains(name) && !CHECKED.equals(value)) {
                problems.add(invalid(name, "A checkbox: sent as " + CHECKED + " when ticked and left out when not;"
                        + " no other value is taken, and nothing was saved."));
            }
        });
        return problems;
    }

    /**
     * Where a form's submission by {@code GET} goes on to: {@code page} with the request's query as sent (its order and
     * encoding kept), but for each of the form's {@code fields} sent without a value ({@link QueryParameters#blank}: a
     * form sends every field, filled in or not). The page itself refuses an empty value, which read as no filter would
     * widen its search, so its form is sent here and the page's address holds what was filled in. Only that is dropped:
     * a parameter that is none of the form's fields, one given more than once and one without '=' are passed on as
     * given, for the page to refuse.
     */
    static String filled(String page, HttpRequest<?> request, List<String> fields) {
        String query = request.getUri().getRawQuery();
        if (query == null) {
            return page;
        }
        List<String> pairs = Arrays.stream(query.split("&")).filter(pair -> !pair.isEmpty()).toList();
        Map<String, Long> times = pairs.stream().collect(Collectors.groupingBy(ConsoleForms::name,
                Collectors.counting()));
        List<String> kept = pairs.stream().filter(pair -> !fields.contains(name(pair)) || times.get(name(pair)) > 1
                || !pair.contains("=") || !QueryParameters.blank(value(pair))).toList();
        return kept.isEmpty() ? page : page + "?" + String.join("&", kept);
    }

    // QueryStringFilter has refused a query whose escapes do not decode, so every name and value here does.
    private static String name(String pair) {
        int equals = pair.indexOf('=');
        return URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
    }

    private static String value(String pair) {
        return URLDecoder.decode(pair.substring(pair.indexOf('=') + 1), StandardCharsets.UTF_8);
    }

    /** The form's {@code version}: a whole number of at most 18 digits, as the page wrote it; empty otherwise. */
    static Optional<Long> version(Map<String, String> form) {
        return Optional.ofNullable(form.get("version")).filter(v -> v.matches("[0-9]{1,18}")).map(Long::parseLong);
    }

    /** The problem of a {@code version} that is absent or not a {@link #version}. */
    static FieldProblem badVersion() {
        return invalid("version", "Not a version number (the page writes the version it showed), so nothing was"
                + " saved. The form now holds the stored version: check the values and save again.");
    }

    private static FieldProblem invalid(String field, String message) {
        return new FieldProblem(field, FieldProblem.Kind.INVALID, message);
    }
}
