package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.HealthController;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.security.authentication.Authentication;
import java.util.Map;

/**
 * {@code GET /console}: the overview. Health and readiness exactly as the readiness probe answers them (the same
 * method), so the PDP's served bundle revision and key, the last refused revision and why, the store, draining, the
 * notice streams and the service clients; and decisions per minute by outcome ({@link DecisionRates}).
 */
@Controller("/console")
@Produces(MediaType.TEXT_HTML)
public class OverviewController {

    private final HealthController health;
    private final DecisionRates rates;

    public OverviewController(HealthController health, DecisionRates rates) {
        this.health = health;
        this.rates = rates;
    }

    @Get
    public HttpResponse<?> overview(Authentication operator, HttpRequest<?> request) {
        PageParameters parameters = PageParameters.of(request);
        if (!parameters.ok()) {
            return parameters.refused(ConsolePages.page("Overview", "overview", operator), "/console");
        }
        HttpResponse<Map<String, Object>> readiness = health.readiness();
        return HttpResponse.ok(ConsolePages.view("console/overview", ConsolePages.page("Overview", "overview", operator), Map.of(
                "ready", readiness.status() == HttpStatus.OK,
                "health", OverviewModel.of(readiness.body()),
                "rates", rates.perMinute())));
    }
}
