package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.CreateSessionRequest;
import dev.gatehouse.gateway.admin.CreatedSession;
import dev.gatehouse.gateway.admin.FieldProblem;
import dev.gatehouse.gateway.admin.SessionAdmin;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Post;
import io.micronaut.security.authentication.Authentication;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/sessions}: the attached thread sessions (never tokens or hashes), attaching one (its token is shown
 * once, on the answer to the form, never again) and revoking one; through {@link SessionAdmin}, as the admin API.
 */
@Controller("/console/sessions")
@Produces(MediaType.TEXT_HTML)
public class SessionsController {

    /** The attach form's fields, as the admin API names them. */
    static final List<String> FIELDS = List.of("logicalAgentId", "threadId", "environmentId", "t3ProjectId",
            "providerSessionId", "providerInstanceId", "provider", "agentName");

    private final SessionAdmin sessions;

    public SessionsController(SessionAdmin sessions) {
        this.sessions = sessions;
    }

    @Get
    public HttpResponse<?> list(Authentication operator, HttpRequest<?> request) {
        PageParameters parameters = PageParameters.of(request, "revoked");
        // A flag, not an id: the address is anyone's to write, so the notice repeats no text from it.
        boolean revoked = parameters.flag("revoked");
        if (!parameters.ok()) {
            return parameters.refused(ConsolePages.page("Sessions", "sessions", operator), "/console/sessions");
        }
        return HttpResponse.ok(page(operator, Map.of("environmentId", "local", "provider", "codex"), Map.of(),
                Optional.empty(), revoked ? Optional.of("The session was revoked.") : Optional.empty()));
    }

    @Post(consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> attach(Authentication operator, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        CreateSessionRequest request = new CreateSessionRequest(form.get("environmentId"), form.get("threadId"),
                form.get("providerSessionId"), form.get("providerInstanceId"), form.get("logicalAgentId"),
                form.get("t3ProjectId"), form.get("agentName"), form.get("provider"), null);
        List<FieldProblem> shape = ConsoleForms.shape(form, FIELDS, List.of());
        AdminResult<CreatedSession> result = shape.isEmpty() ? sessions.attach(request, ConsolePages.actor(operator))
                : new AdminResult.Refused<>(shape);
        if (result instanceof AdminResult.Done<CreatedSession> done) {
            return HttpResponse.ok(page(operator, Map.of("environmentId", "local", "provider", "codex"), Map.of(),
                    Optional.of(done.value()), Optional.of("Session " + done.value().sessionId() + " attached.")));
        }
        return HttpResponse.status(HttpStatus.BAD_REQUEST).body(page(operator, form,
                ConsoleForms.problems(result), Optional.empty(), Optional.empty()));
    }

    @Post(value = "/{sessionId}/revoke", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> revoke(Authentication operator, String sessionId, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        Optional<MutableHttpResponse<?>> refused = ConsolePages.actionRefused(operator, form, List.of(),
                "/console/sessions");
        if (refused.isPresent()) {
            return refused.get();
        }
        if (sessions.revoke(sessionId, ConsolePages.actor(operator)) instanceof AdminResult.Done<Void>) {
            return ConsolePages.seeOther("/console/sessions?revoked");
        }
        return ConsolePages.notFound(operator, "No current session has this id; it may have been revoked already.");
    }

    private io.micronaut.views.ModelAndView<Map<String, Object>> page(Authentication operator,
            Map<String, String> form, Map<String, String> problems, Optional<CreatedSession> created,
            Optional<String> notice) {
        Map<String, String> values = new LinkedHashMap<>();
        FIELDS.forEach(field -> values.put(field, form.getOrDefault(field, "")));
        return ConsolePages.view("console/sessions", ConsolePages.page("Sessions", "sessions", operator)
                .withNotice(notice), Map.of("sessions", sessions.current(), "form", values, "problems", problems,
                "created", created));
    }
}
