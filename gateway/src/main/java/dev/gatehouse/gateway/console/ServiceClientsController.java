package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.FieldProblem;
import dev.gatehouse.gateway.admin.ServiceClientAdmin;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console/service-clients}: the Project, Wiki and host clients (URL, whether the credential works, the last
 * exchange and the last authentication failure as this replica saw them, when the credential was last changed), and a
 * new credential for one, entered write-only: the field is a password field that is never filled in, and the value is
 * never shown, logged or audited ({@link ServiceClientAdmin}).
 */
@Controller("/console/service-clients")
@Produces(MediaType.TEXT_HTML)
public class ServiceClientsController {

    private final ServiceClientAdmin clients;

    public ServiceClientsController(ServiceClientAdmin clients) {
        this.clients = clients;
    }

    @Get
    public HttpResponse<?> list(Authentication operator, HttpRequest<?> request) {
        PageParameters parameters = PageParameters.of(request, "replaced", "removed");
        // Only a service's own name is repeated in the notice: the address is anyone's to write.
        Optional<String> replaced = parameters.oneOf("replaced", ServiceClientAdmin.SERVICES);
        Optional<String> removed = parameters.oneOf("removed", ServiceClientAdmin.SERVICES);
        if (!parameters.ok()) {
            return parameters.refused(ConsolePages.page("Service clients", "service-clients", operator),
                    "/console/service-clients");
        }
        Optional<String> notice = replaced.map(s -> "The " + s + " credential was replaced; it is used from the next"
                + " call on.").or(() -> removed.map(s -> "The stored " + s + " credential was removed; the configured"
                + " one is used from the next call on."));
        return HttpResponse.ok(page(operator, "", Map.of(), notice));
    }

    @Post(value = "/{service}/credential", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> replace(Authentication operator, String service, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        List<FieldProblem> shape = ConsoleForms.shape(form, List.of("credential"), List.of());
        AdminResult<?> result = shape.isEmpty() ? clients.replace(service, form.get("credential"),
                ConsolePages.actor(operator)) : new AdminResult.Refused<>(shape);
        if (result instanceof AdminResult.Done<?>) {
            return ConsolePages.seeOther("/console/service-clients?replaced=" + service);
        }
        if (result instanceof AdminResult.NotFound<?>) {
            return ConsolePages.notFound(operator, "There is no such service client.");
        }
        return HttpResponse.status(HttpStatus.BAD_REQUEST).body(page(operator, service,
                ConsoleForms.problems(result), Optional.empty()));
    }

    @Post(value = "/{service}/credential/remove", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> remove(Authentication operator, String service, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        Optional<MutableHttpResponse<?>> refused = ConsolePages.actionRefused(operator, form, List.of(),
                "/console/service-clients");
        if (refused.isPresent()) {
            return refused.get();
        }
        if (clients.remove(service, ConsolePages.actor(operator)) instanceof AdminResult.Done<?>) {
            return ConsolePages.seeOther("/console/service-clients?removed=" + service);
        }
        return ConsolePages.notFound(operator, "No credential is stored for this service client.");
    }

    private io.micronaut.views.ModelAndView<Map<String, Object>> page(Authentication operator, String failed,
            Map<String, String> problems, Optional<String> notice) {
        return ConsolePages.view("console/service-clients", ConsolePages.page("Service clients", "service-clients",
                operator).withNotice(notice), Map.of("clients", clients.clients(), "canStore", clients.canStore(),
                "failed", failed, "problems", problems));
    }
}
