package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.audit.Actor;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.views.ModelAndView;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What every console controller shares: the page frame, the CSRF check, the actor, answers. */
final class ConsolePages {

    /** The form field carrying the session's synchronizer token. */
    static final String CSRF_FIELD = "csrf";

    private ConsolePages() {
    }

    static Page page(String title, String nav, Authentication operator) {
        return new Page(title, nav, Optional.of(String.valueOf(operator.getAttributes()
                .getOrDefault(ConsoleAuthenticationFetcher.DISPLAY_NAME, operator.getName()))),
                Optional.of(String.valueOf(operator.getAttributes().get(ConsoleAuthenticationFetcher.CSRF))),
                Optional.empty());
    }

    /** The audit's actor for this operator: their OIDC subject. */
    static Actor actor(Authentication operator) {
        return Actor.operator(operator.getName());
    }

    /** Whether the form carries this session's CSRF token (compared in constant time). */
    static boolean csrfOk(Authentication operator, Map<String, String> form) {
        Object expected = operator.getAttributes().get(ConsoleAuthenticationFetcher.CSRF);
        String sent = form.get(CSRF_FIELD);
        return expected != null && sent != null && MessageDigest.isEqual(
                expected.toString().getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8));
    }

    /** 403 for a change without this session's CSRF token; nothing was done. */
    static MutableHttpResponse<?> csrfRefused() {
        return refused(HttpStatus.FORBIDDEN, "Refused",
                "This form was not sent from your current console session (its CSRF token is missing or stale)."
                        + " Nothing was changed. Reload the page and try again.");
    }

    static MutableHttpResponse<?> refused(HttpStatus status, String title, String message) {
        return HttpResponse.status(status).body(new ModelAndView<>("console/refused",
                Map.of("page", Page.anonymous(title), "message", message)));
    }

    /**
     * 400 page: each problem said for its {@code kind} ({@code parameter}, {@code field}) and name, what came of the
     * request, a link {@code back}.
     */
    static MutableHttpResponse<?> badRequest(Page page, String kind, Map<String, String> problems, String outcome,
            String back) {
        return HttpResponse.status(HttpStatus.BAD_REQUEST).body(view("console/bad-request", page, Map.of(
                "kind", kind, "problems", problems, "outcome", outcome, "back", back)));
    }

    /**
     * 400 for an action's form (no fields to show again) that has a field it does not take
     * ({@link ConsoleForms#shape}): nothing was done; empty when its shape is right.
     */
    static Optional<MutableHttpResponse<?>> actionRefused(Authentication operator, Map<String, String> form,
            List<String> fields, String back) {
        Map<String, String> problems = ConsoleForms.problems(new AdminResult.Refused<>(ConsoleForms.shape(form,
                fields, List.of())));
        return problems.isEmpty() ? Optional.empty() : Optional.of(badRequest(page("Refused", "", operator),
                "field", problems, "Nothing was changed.", back));
    }

    /** 404 page, inside the signed-in frame. */
    static MutableHttpResponse<?> notFound(Authentication operator, String message) {
        return HttpResponse.status(HttpStatus.NOT_FOUND).body(view("console/not-found",
                page("Not found", "", operator), Map.of("message", message)));
    }

    static ModelAndView<Map<String, Object>> view(String name, Page page, Map<String, Object> model) {
        Map<String, Object> all = new HashMap<>(model);
        all.put("page", page);
        return new ModelAndView<>(name, all);
    }

    /** 303 to {@code path} (post/redirect/get). */
    static MutableHttpResponse<?> seeOther(String path) {
        return HttpResponse.seeOther(URI.create(path));
    }

    /** A form checkbox: present and {@code on}. */
    static boolean checked(Map<String, String> form, String field) {
        return "on".equals(form.get(field));
    }

    /** A form text field, {@code null} when absent or blank. */
    static String text(Map<String, String> form, String field) {
        String value = form.get(field);
        return value == null || value.isBlank() ? null : value;
    }
}
