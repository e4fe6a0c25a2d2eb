package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.notice.NoticeStatus;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.store.Database;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /health}: 200 {@code {status: "UP", pdp: {engine, bundleRevision}, store: {status: "UP"}}} while the PDP
 * has a bundle and the shared store answers, else 503 {@code {status: "DOWN", …}} with a {@code fault: {code, detail}}
 * on the part that is down (the store check waits at most the pool's connection timeout). A gateway without a bundle stays up, says
 * why here, and denies every call with {@code policy_unavailable}. When Project Work notices are consumed,
 * {@code notices: {project?, host?: {state, since, detail?}}} reports their streams ({@code state} is {@code ok} or
 * a failure kind such as {@code authentication}); it does not change the status. Public: no secrets, no decision
 * input.
 */
@Controller("/health")
public class HealthController {

    private final PolicyDecisionPoint pdp;
    private final Database database;
    private final NoticeStatus notices;

    public HealthController(PolicyDecisionPoint pdp, Database database, NoticeStatus notices) {
        this.pdp = pdp;
        this.database = database;
        this.notices = notices;
    }

    @Get
    public HttpResponse<Map<String, Object>> health() {
        PdpStatus status = pdp.status();
        Map<String, Object> engine = new LinkedHashMap<>();
        engine.put("engine", status.engine());
        status.bundleRevision().ifPresent(revision -> engine.put("bundleRevision", revision));
        status.fault().ifPresent(fault -> engine.put("fault", Map.of("code", fault.code(), "detail", fault.detail())));
        Map<String, Object> store = new LinkedHashMap<>();
        boolean storeUp = database.ping();
        store.put("status", storeUp ? "UP" : "DOWN");
        if (!storeUp) {
            store.put("fault", Map.of("code", "store_unavailable",
                    "detail", "the shared PostgreSQL store does not answer; /mcp calls are answered 503 unavailable"));
        }
        boolean healthy = status.healthy() && storeUp;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", healthy ? "UP" : "DOWN");
        body.put("pdp", engine);
        body.put("store", store);
        // Detail only: a Project Service that refuses the notice credential is reported, and /mcp keeps serving.
        Map<String, Object> streams = notices.view();
        if (!streams.isEmpty()) {
            body.put("notices", streams);
        }
        return HttpResponse.<Map<String, Object>>status(healthy ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                .body(body);
    }
}
