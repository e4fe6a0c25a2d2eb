package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.QueryParameters;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A console page's query string, read as strictly as the admin API's searches ({@link QueryParameters#strict}): a name
 * the page does not take or one given twice is refused, and so is a value the page does not know or one given without a
 * value (a misspelt, stale or empty {@code ?ceiling=} would otherwise show the page as if none was asked for). A page
 * with a problem answers 400 saying each one ({@link #refused}) and shows nothing it was asked for.
 */
final class PageParameters {

    private final HttpRequest<?> request;
    private final Map<String, String> problems;

    private PageParameters(HttpRequest<?> request, Map<String, String> problems) {
        this.request = request;
        this.problems = problems;
    }

    /** The request's parameters, checked against the names the page takes (in the order its messages list them). */
    static PageParameters of(HttpRequest<?> request, String... known) {
        return new PageParameters(request, new LinkedHashMap<>(ConsoleForms.problems(QueryParameters.strict(request,
                Arrays.asList(known), "page", new AdminResult.Done<>(null)))));
    }

    /** Whether the flag {@code name} is given; given with a value, it is a problem. */
    boolean flag(String name) {
        Optional<String> value = request.getParameters().getFirst(name);
        if (value.filter(v -> !v.isEmpty()).isPresent()) {
            problems.putIfAbsent(name, "Takes no value: it is given or left out.");
        }
        return value.isPresent();
    }

    /**
     * The value of {@code name} when it is one of {@code allowed}; empty when absent. Given without a value (empty,
     * without '=' or {@link QueryParameters#blank}) it is a problem saying so, and any other value one listing the
     * allowed ones; a form's empty choice is sent to a {@code /find} route, which leaves it out.
     */
    Optional<String> oneOf(String name, List<String> allowed) {
        Optional<String> value = request.getParameters().getFirst(name);
        if (value.filter(QueryParameters::blank).isPresent()) {
            problems.putIfAbsent(name, QueryParameters.EMPTY);
            return Optional.empty();
        }
        if (value.isPresent() && !allowed.contains(value.get())) {
            problems.putIfAbsent(name, allowed.isEmpty() ? "Takes no value here; leave it out."
                    : "Takes " + String.join(" or ", allowed) + ", or is left out.");
            return Optional.empty();
        }
        return value;
    }

    /** Whether every parameter was taken. */
    boolean ok() {
        return problems.isEmpty();
    }

    /** 400: the page's frame, each parameter's problem, and a link to {@code back}, the page without them. */
    MutableHttpResponse<?> refused(Page page, String back) {
        return ConsolePages.badRequest(page, "parameter", problems, "Nothing was shown for this address.", back);
    }
}
