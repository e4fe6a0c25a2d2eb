package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The admin API used by the agent host and operators, behind {@link AdminCredentialFilter}:
 * <ul>
 * <li>{@code POST /admin/sessions} → 201 {@link CreatedSession}; 400 {@code {error, missing[]}} when a required field
 * is absent or blank;</li>
 * <li>{@code DELETE /admin/sessions/{id}} → 204, or 404 when no such session;</li>
 * <li>{@code PUT /admin/agents/{agentId}} → 200 with the stored settings; 400 when Project is enabled without a
 * project. Applies from the agent's next call, in every live session.</li>
 * </ul>
 */
@Controller("/admin")
public class AdminController {

    private final SessionStore sessions;
    private final AgentSettingsStore settings;

    public AdminController(SessionStore sessions, AgentSettingsStore settings) {
        this.sessions = sessions;
        this.settings = settings;
    }

    @Post("/sessions")
    public HttpResponse<?> createSession(@Body CreateSessionRequest request) {
        List<String> missing = new ArrayList<>();
        Stream.of(Map.entry("environmentId", Optional.ofNullable(request.environmentId())),
                Map.entry("threadId", Optional.ofNullable(request.threadId())),
                Map.entry("providerSessionId", Optional.ofNullable(request.providerSessionId())),
                Map.entry("providerInstanceId", Optional.ofNullable(request.providerInstanceId())),
                Map.entry("logicalAgentId", Optional.ofNullable(request.logicalAgentId())),
                Map.entry("t3ProjectId", Optional.ofNullable(request.t3ProjectId())))
                .filter(field -> field.getValue().filter(v -> !v.isBlank()).isEmpty())
                .forEach(field -> missing.add(field.getKey()));
        if (!missing.isEmpty()) {
            return HttpResponse.badRequest(Map.of("error", "missing_fields", "missing", missing));
        }
        String token = SessionTokens.mint();
        AgentSession session = new AgentSession(SessionTokens.newId(), request.environmentId(), request.threadId(),
                request.providerSessionId(), request.providerInstanceId(), request.logicalAgentId(),
                request.t3ProjectId(), Optional.ofNullable(request.agentName()).filter(n -> !n.isBlank()));
        sessions.put(token, session);
        return HttpResponse.created(new CreatedSession(session.sessionId(), token));
    }

    @Delete("/sessions/{sessionId}")
    public HttpResponse<?> revokeSession(String sessionId) {
        return sessions.revoke(sessionId) ? HttpResponse.noContent() : HttpResponse.notFound();
    }

    @Put("/agents/{agentId}")
    public HttpResponse<?> putAgentSettings(String agentId, @Body AgentSettingsRequest request) {
        boolean projectEnabled = request.project() != null && Boolean.TRUE.equals(request.project().enabled());
        Optional<String> projectId = Optional.ofNullable(request.project())
                .map(AgentSettingsRequest.Project::projectServiceProjectId).filter(id -> !id.isBlank());
        if (projectEnabled && projectId.isEmpty()) {
            return HttpResponse.badRequest(Map.of("error", "missing_fields",
                    "missing", List.of("project.projectServiceProjectId")));
        }
        AgentSettings stored = new AgentSettings(Boolean.TRUE.equals(request.browserAccess()),
                new AgentSettings.Project(projectEnabled, projectId),
                new AgentSettings.Wiki(request.wiki() != null && Boolean.TRUE.equals(request.wiki().read()),
                        request.wiki() != null && Boolean.TRUE.equals(request.wiki().write())));
        settings.put(agentId, stored);
        return HttpResponse.ok(request);
    }
}
