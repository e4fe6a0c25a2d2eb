package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.RetentionStatus;
import dev.gatehouse.gateway.audit.shipping.IndexFeed;
import dev.gatehouse.gateway.context.ShellWatch;
import dev.gatehouse.gateway.decisions.IndexFeedStatus;
import dev.gatehouse.gateway.lifecycle.CallTracker;
import dev.gatehouse.gateway.notice.NoticeStatus;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.quota.Admission;
import dev.gatehouse.gateway.quota.QuotaLimiter;
import dev.gatehouse.gateway.store.Database;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /health}: 200 {@code {status: "UP", pdp: {engine, bundleRevision, bundleKeyId?, lastRefusal?}, store:
 * {status: "UP"}}} ({@code bundleRevision} is the manifest revision serving, {@code bundleKeyId} the key that verified
 * it, {@code lastRefusal} why the latest bundle offered was not activated while this one keeps serving) while the PDP
 * has a bundle and the shared store answers, else 503 {@code {status: "DOWN", …}} with a {@code fault: {code, detail}}
 * on the part that is down (the store check waits at most the store deadline, 2 s, a stalled server included). A
 * gateway without a bundle stays up, says why here, and denies every call with {@code policy_unavailable}. When
 * Project Work notices are consumed, {@code notices: {project?, host?: {state, since, detail?, lastError?: {kind,
 * at, detail}}, hold: {replica, holding, holder?, since}}} reports their streams ({@code state} is {@code ok} or a
 * failure kind such as {@code authentication}; {@code lastError} the most recent failure, kept after recovery) and
 * which replica holds them as this one last saw it ({@code holding}: this one does; {@code holder} absent: none, or
 * the store did not say); it does not change the status. {@code decisionLog: {status, keptFiles,
 * mustKeepFiles, maxFiles, evictedRecords}} reports the decision log's space budget: while
 * {@code max-files} or more rotated files are kept that are neither shipped nor past their retention age (the next
 * rotation deletes records that are neither, or one did), its status and the top-level one are {@code DEGRADED},
 * still with 200: decisions go on and so does readiness. {@code services: {project, wiki, host: {state,
 * credentialSource, lastAuthenticationFailure?}}} says whether each service client's credential works as this replica
 * last saw it ({@link ServiceClientView}: {@code failing} after a 401); it does not change the status either, and is
 * left out while the store does not answer. {@code hostWatch: {state, …}} reports the watch of the host's thread
 * shells ({@link ShellWatch#view}: {@code watching}, {@code stale}, {@code disconnected} or {@code off}); it does not
 * change the status either, since without the watch every shell is read from the host on the call.
 * {@code decisionIndex: {state, since, indexed, caughtUpAt?, lastError?: {detail, at}}} reports this replica's feed
 * into the decision index ({@code indexing}, or {@code failing} since {@code since}: its batches are not read or
 * written, so decision search and replay miss this replica's newer decisions until it recovers); absent when the
 * index is off. It does not change the status either: decisions go on and are logged whatever the index does.
 * {@code quotas: {status, budgets, since?, detail?}} says which budgets answer (docs/domain.md §10): {@code shared}
 * (every replica's calls draw on one budget per bucket in PostgreSQL) or {@code local} (the shared store did not
 * answer, so each bucket grants this replica's conservative local share, {@code gatehouse.quotas.degraded-share},
 * since {@code since}); while local, its status and the top-level one are {@code DEGRADED}, still with 200: calls go
 * on within the local budgets. Public: no secrets, no decision input.
 *
 * <p>Probes, at Micronaut's conventional paths: {@code GET /health/liveness} is 200 {@code {status: "UP"}} while the
 * process answers HTTP at all (restart it when this fails); {@code GET /health/readiness} is 200 with the body of
 * {@code /health} plus {@code draining: false} only while the PDP has a verified bundle, the store answers and the
 * gateway is not draining for shutdown, else 503 {@code status: "DOWN"} (send it no traffic).
 */
@Controller("/health")
public class HealthController {

    private final PolicyDecisionPoint pdp;
    private final Database database;
    private final CallTracker calls;
    private final NoticeStatus notices;
    private final DecisionLog decisionLog;
    private final ServiceClientAdmin serviceClients;
    private final ShellWatch hostWatch;
    private final QuotaLimiter quotas;
    private final Optional<IndexFeed> indexFeed;

    public HealthController(PolicyDecisionPoint pdp, Database database, CallTracker calls, NoticeStatus notices,
            DecisionLog decisionLog, ServiceClientAdmin serviceClients, ShellWatch hostWatch, QuotaLimiter quotas,
            Optional<IndexFeed> indexFeed) {
        this.pdp = pdp;
        this.database = database;
        this.calls = calls;
        this.notices = notices;
        this.decisionLog = decisionLog;
        this.serviceClients = serviceClients;
        this.hostWatch = hostWatch;
        this.quotas = quotas;
        this.indexFeed = indexFeed;
    }

    @Get("/liveness")
    public Map<String, Object> liveness() {
        return Map.of("status", "UP");
    }

    @Get("/readiness")
    public HttpResponse<Map<String, Object>> readiness() {
        boolean draining = calls.draining();
        HttpResponse<Map<String, Object>> health = health();
        Map<String, Object> body = new LinkedHashMap<>(health.body());
        body.put("draining", draining);
        boolean ready = health.status() == HttpStatus.OK && !draining;
        body.put("status", ready ? "UP" : "DOWN");
        return HttpResponse.<Map<String, Object>>status(ready ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                .body(body);
    }

    @Get
    public HttpResponse<Map<String, Object>> health() {
        PdpStatus status = pdp.status();
        Map<String, Object> engine = new LinkedHashMap<>();
        engine.put("engine", status.engine());
        status.bundleRevision().ifPresent(revision -> engine.put("bundleRevision", revision));
        status.bundleKeyId().ifPresent(keyId -> engine.put("bundleKeyId", keyId));
        status.lastRefusal().ifPresent(refusal -> engine.put("lastRefusal", refusal.detail()));
        status.fault().ifPresent(fault -> engine.put("fault", Map.of("code", fault.code(), "detail", fault.detail())));
        Map<String, Object> store = new LinkedHashMap<>();
        boolean storeUp = database.ping();
        store.put("status", storeUp ? "UP" : "DOWN");
        if (!storeUp) {
            store.put("fault", Map.of("code", "store_unavailable",
                    "detail", "the shared PostgreSQL store does not answer; /mcp calls are answered 503 unavailable"));
        }
        boolean healthy = status.healthy() && storeUp;
        RetentionStatus retention = decisionLog.retention();
        Map<String, Object> body = new LinkedHashMap<>();
        QuotaLimiter.Status quota = quotas.status();
        boolean local = quota.budgets() == Admission.Budget.LOCAL;
        body.put("status", !healthy ? "DOWN" : retention.degraded() || local ? "DEGRADED" : "UP");
        body.put("pdp", engine);
        body.put("store", store);
        body.put("decisionLog", decisionLog(retention));
        body.put("quotas", quotas(quota));
        // Detail only: without the watch every thread shell is read from the host on the call, as before it.
        body.put("hostWatch", hostWatch.view());
        // Detail only: a failing index feed stops search and replay of newer decisions, not the decisions.
        indexFeed.ifPresent(feed -> body.put("decisionIndex", decisionIndex(feed.status().view())));
        // Detail only: a Project Service that refuses the notice credential is reported, and /mcp keeps serving.
        Map<String, Object> streams = new LinkedHashMap<>(notices.view());
        Map<String, Object> hold = notices.holdView();
        if (!hold.isEmpty()) {
            streams.put("hold", hold);
        }
        if (!streams.isEmpty()) {
            body.put("notices", streams);
        }
        if (storeUp) {
            services().ifPresent(services -> body.put("services", services));
        }
        return HttpResponse.<Map<String, Object>>status(healthy ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                .body(body);
    }

    private static Map<String, Object> decisionLog(RetentionStatus retention) {
        Map<String, Object> log = new LinkedHashMap<>();
        log.put("status", retention.degraded() ? "DEGRADED" : "UP");
        log.put("keptFiles", retention.keptFiles());
        log.put("mustKeepFiles", retention.mustKeepFiles());
        log.put("maxFiles", retention.maxFiles());
        log.put("evictedRecords", retention.evicted());
        if (retention.degraded()) {
            log.put("fault", Map.of("code", "decision_log_budget", "detail", "the space budget (max-files) is full"
                    + " of records neither shipped nor past their retention age: rotations delete the newest of"
                    + " them; raise max-files or max-file-bytes, or ship the log"));
        }
        return log;
    }

    private static Map<String, Object> decisionIndex(IndexFeedStatus.View feed) {
        Map<String, Object> index = new LinkedHashMap<>();
        index.put("state", feed.failing() ? "failing" : "indexing");
        index.put("since", feed.since().toString());
        index.put("indexed", feed.indexed());
        feed.caughtUpAt().ifPresent(at -> index.put("caughtUpAt", at.toString()));
        feed.lastError().ifPresent(error -> index.put("lastError",
                Map.of("detail", error, "at", feed.lastErrorAt().map(Object::toString).orElse(""))));
        return index;
    }

    private static Map<String, Object> quotas(QuotaLimiter.Status status) {
        Map<String, Object> quotas = new LinkedHashMap<>();
        quotas.put("status", status.budgets() == Admission.Budget.LOCAL ? "DEGRADED" : "UP");
        quotas.put("budgets", status.budgets().wire());
        status.since().ifPresent(since -> quotas.put("since", since.toString()));
        status.detail().ifPresent(detail -> quotas.put("detail", detail));
        return quotas;
    }

    /** Detail only: a refused service credential is reported, and nothing is deleted or stopped for it. */
    private Optional<Map<String, Object>> services() {
        try {
            Map<String, Object> services = new LinkedHashMap<>();
            for (ServiceClientView client : serviceClients.clients()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("state", client.state());
                one.put("credentialSource", client.credentialSource());
                if (client.lastAuthenticationFailure() != null) {
                    one.put("lastAuthenticationFailure", client.lastAuthenticationFailure());
                }
                services.put(client.service(), one);
            }
            return Optional.of(services);
        } catch (StoreUnavailableException e) {
            return Optional.empty();
        }
    }
}
