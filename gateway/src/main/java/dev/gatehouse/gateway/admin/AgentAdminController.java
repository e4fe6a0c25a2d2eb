package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Put;
import java.util.List;

/**
 * The admin API of thread agents' settings, behind {@link AdminCredentialFilter} ({@link AgentAdmin} does the work,
 * audited as the admin API credential):
 * <ul>
 * <li>{@code GET /admin/agents/{agentId}} → 200 {@link AgentSettingsView} with {@code ETag}, 404 when never set; it
 * takes no query parameter (400 {@code invalid_fields} naming one);</li>
 * <li>{@code PUT /admin/agents/{agentId}} ({@link AgentSettingsRequest}) → 200 with the stored settings and their new
 * version; 400 when Project is enabled without a project or the id is not a thread agent's (e.g. in the
 * outside-agent namespace {@code oa-…}); 409 {@code {error: "version_conflict", currentVersion}} when
 * {@code If-Match} or the body's {@code version} is stale; 412 {@code {error: "precondition_failed", message}} when
 * {@code If-Match} is a weak tag (compared strongly, it never matches) or {@code *} and no settings are stored, or
 * when {@code If-None-Match: *} asked to create them only and some are stored (RFC 9110 §13.1.2); 400
 * {@code invalid_fields} naming {@code If-Match} or {@code If-None-Match} when one is given twice
 * ({@link ConditionalHeaders}), or a query parameter (it takes none). Applies from the agent's next
 * call, in every live session, on every replica.</li>
 * </ul>
 */
@Controller("/admin/agents")
public class AgentAdminController {

    private final AgentAdmin agents;

    public AgentAdminController(AgentAdmin agents) {
        this.agents = agents;
    }

    @Get("/{agentId}")
    public HttpResponse<?> getAgentSettings(HttpRequest<?> http, String agentId) {
        return AdminResponses.answer(QueryParameters.strict(http, List.of(), new AdminResult.Done<>(agentId)),
                id -> agents.settings(id)
                        .<HttpResponse<?>>map(stored -> HttpResponse.ok(AgentSettingsView.of(id, stored))
                                .header("ETag", AdminResponses.etag(stored.version())))
                        .orElseGet(AdminResponses::notFound));
    }

    @Put("/{agentId}")
    public HttpResponse<?> putAgentSettings(HttpRequest<?> http, String agentId, @Nullable @Body byte[] body) {
        return AdminResponses.answer(QueryParameters.strict(http, List.of(), ConditionalHeaders.of(http)),
                conditions -> AdminResponses.answer(AdminBodies.read(body, AgentSettingsRequest.class),
                        request -> AdminResponses.answer(agents.put(agentId, request, conditions.ifMatch(),
                                conditions.ifNoneMatch(), Actor.ADMIN_API),
                                stored -> HttpResponse.ok(AgentSettingsView.of(agentId, stored))
                                        .header("ETag", AdminResponses.etag(stored.version())))));
    }
}
