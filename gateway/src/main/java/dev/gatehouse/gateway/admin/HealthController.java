package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /health}: 200 {@code {status: "UP", pdp: {engine, bundleRevision}}} while the PDP has a bundle, else
 * 503 {@code {status: "DOWN", pdp: {engine, fault: {code, detail}}}}. A gateway without a bundle stays up, says
 * why here, and denies every call with {@code policy_unavailable}. Public: no secrets, no decision input.
 */
@Controller("/health")
public class HealthController {

    private final PolicyDecisionPoint pdp;

    public HealthController(PolicyDecisionPoint pdp) {
        this.pdp = pdp;
    }

    @Get
    public HttpResponse<Map<String, Object>> health() {
        PdpStatus status = pdp.status();
        Map<String, Object> engine = new LinkedHashMap<>();
        engine.put("engine", status.engine());
        status.bundleRevision().ifPresent(revision -> engine.put("bundleRevision", revision));
        status.fault().ifPresent(fault -> engine.put("fault", Map.of("code", fault.code(), "detail", fault.detail())));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status.healthy() ? "UP" : "DOWN");
        body.put("pdp", engine);
        return HttpResponse.<Map<String, Object>>status(status.healthy() ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                .body(body);
    }
}
