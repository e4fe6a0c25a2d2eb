package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import dev.gatehouse.gateway.notice.DeliveryProfile;
import dev.gatehouse.gateway.notice.NoticeProperties;
import dev.gatehouse.gateway.notice.NoticeStatus;
import dev.gatehouse.gateway.notice.NoticeStore;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Put;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admin API of Project Work notices (docs/domain.md §9), behind {@link AdminCredentialFilter}:
 * <ul>
 * <li>{@code GET /admin/notices} → 200 {@code {enabled, clientId?, streams: {project?, host?: {state, since,
 * detail?, lastError?: {kind, at, detail}}}, hold?: {replica, holding, holder?, since}, counts: {pending, coalesced,
 * delivered, refused, stale}}}: every notice received is in exactly one count; a refused Project credential shows as
 * {@code streams.project.state = "authentication"}; {@code lastError} is the stream's most recent failure on this
 * replica, kept after it recovered; {@code hold} (while the consumer runs) names this replica and
 * the one holding the streams as this one last saw it; it takes no query parameter (400 {@code invalid_fields}
 * naming one);</li>
 * <li>{@code GET /admin/notices/receipts?state=&agent=&project=&limit=} (parameters: {@link NoticeQueries}) → 200
 * {@code {counts: {pending, coalesced, delivered, refused, stale}, notices: [{noticeId, agent, project, run, fence,
 * version, state, reasons[], decisionId?, aggregateId?, threadId?, acked, receivedAt, updatedAt}],
 * threads: [{agent, project, threadId?, current, aggregatesSent, aggregatesSending, noticesDelivered,
 * lastSentAt?}]}}: the counts of the agent and project filters, their notices newest received first and their
 * aggregates per thread; 400 {@code {error: "invalid_fields", invalid[]}} for a bad parameter, never a 500;</li>
 * <li>{@code PUT /admin/notices/agents/{agentId}} ({@link DeliveryProfileAdmin.ProfileRequest}) → 200 the stored
 * delivery profile; 400 {@code {error: "missing_fields", missing[]}} when the client id or a limit is missing
 * (audited, {@link DeliveryProfileAdmin}), or for a query parameter, an {@code If-Match} or an
 * {@code If-None-Match} (a profile has no version; it takes none of them);</li>
 * <li>{@code GET /admin/notices/agents/{agentId}} → 200 the profile, 404 when none; it takes no query
 * parameter.</li>
 * </ul>
 * Whether a profile lets notices through is the policy's business; this API only stores the facts.
 */
@Controller("/admin/notices")
public class NoticeAdminController {

    private final NoticeStore store;
    private final NoticeStatus status;
    private final NoticeProperties properties;
    private final DeliveryProfileAdmin profiles;
    private final NoticeQueries queries;

    public NoticeAdminController(NoticeStore store, NoticeStatus status, NoticeProperties properties,
            DeliveryProfileAdmin profiles, NoticeQueries queries) {
        this.store = store;
        this.status = status;
        this.properties = properties;
        this.profiles = profiles;
        this.queries = queries;
    }

    @Get
    public HttpResponse<?> summary(HttpRequest<?> request) {
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), new AdminResult.Done<Void>(null)),
                none -> HttpResponse.ok(summary()));
    }

    private Map<String, Object> summary() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("enabled", properties.isEnabled());
        properties.getClientId().ifPresent(id -> out.put("clientId", id));
        out.put("streams", status.view());
        Map<String, Object> hold = status.holdView();
        if (!hold.isEmpty()) {
            out.put("hold", hold);
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        store.counts().forEach((state, count) -> counts.put(state.wire(), count));
        out.put("counts", counts);
        return out;
    }

    @Get("/receipts")
    public HttpResponse<?> receipts(HttpRequest<?> request) {
        return AdminResponses.answer(QueryParameters.strict(request, NoticeQueries.PARAMETERS,
                queries.parse(QueryParameters.firstValues(request))),
                query -> HttpResponse.ok(listing(queries.find(query))));
    }

    private static Map<String, Object> listing(NoticeQueries.Listing listing) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Long> counts = new LinkedHashMap<>();
        listing.counts().forEach((state, count) -> counts.put(state.wire(), count));
        out.put("counts", counts);
        out.put("notices", listing.notices().stream().map(NoticeAdminController::notice).toList());
        out.put("threads", listing.threads().stream().map(NoticeAdminController::thread).toList());
        return out;
    }

    private static Map<String, Object> notice(NoticeStore.Listed listed) {
        NoticeStore.Receipt r = listed.receipt();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("noticeId", r.noticeId());
        out.put("agent", r.agentId());
        out.put("project", r.projectId());
        out.put("run", r.runId());
        out.put("fence", r.fence());
        out.put("version", r.version());
        out.put("state", r.state().wire());
        out.put("reasons", listed.reasons());
        listed.decisionId().ifPresent(id -> out.put("decisionId", id));
        r.aggregateId().ifPresent(id -> out.put("aggregateId", id));
        listed.threadId().ifPresent(id -> out.put("threadId", id));
        out.put("acked", r.acked());
        out.put("receivedAt", listed.receivedAt().toString());
        out.put("updatedAt", listed.updatedAt().toString());
        return out;
    }

    private static Map<String, Object> thread(NoticeStore.ThreadSends t) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("agent", t.group().agentId());
        out.put("project", t.group().projectId());
        t.threadId().ifPresent(id -> out.put("threadId", id));
        out.put("current", t.current());
        out.put("aggregatesSent", t.sent());
        out.put("aggregatesSending", t.sending());
        out.put("noticesDelivered", t.delivered());
        t.lastSent().ifPresent(at -> out.put("lastSentAt", at.toString()));
        return out;
    }

    @Put("/agents/{agentId}")
    public HttpResponse<?> put(HttpRequest<?> http, @PathVariable String agentId, @Nullable @Body byte[] body) {
        return AdminResponses.answer(QueryParameters.strict(http, List.of(), ConditionalHeaders.none(http,
                ConditionalHeaders.UNVERSIONED, AdminBodies.read(body, DeliveryProfileAdmin.ProfileRequest.class))),
                request -> AdminResponses.answer(profiles.put(agentId, request, Actor.ADMIN_API),
                        profile -> HttpResponse.ok(view(profile))));
    }

    @Get("/agents/{agentId}")
    public HttpResponse<?> get(HttpRequest<?> request, @PathVariable String agentId) {
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), new AdminResult.Done<>(agentId)),
                id -> profiles.profile(id).<HttpResponse<?>>map(p -> HttpResponse.ok(view(p)))
                        .orElseGet(AdminResponses::notFound));
    }

    private static Map<String, Object> view(DeliveryProfile profile) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("agentId", profile.agentId());
        out.put("projectClientId", profile.projectClientId());
        profile.runtimeMode().ifPresent(m -> out.put("runtimeMode", m));
        profile.interactionMode().ifPresent(m -> out.put("interactionMode", m));
        out.put("limitRuntimeMode", profile.limitRuntimeMode());
        out.put("limitInteractionMode", profile.limitInteractionMode());
        return out;
    }
}
