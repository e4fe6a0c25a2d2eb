package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
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
 * <li>{@code PUT /admin/agents/{agentId}} → 200 with the stored settings of that thread agent; 400 when Project is
 * enabled without a project. Applies from the agent's next call, in every live session.</li>
 * <li>{@code PUT /admin/outside-agents} ({@link OutsideAgentRequest}) → 200 {@link OutsideAgentView}: registers an
 * outside agent by token issuer and subject, with its logical agent id and settings;
 * {@code GET /admin/outside-agents} → 200 {@code [OutsideAgentView]};
 * {@code DELETE /admin/outside-agents?issuer=&subject=} → 204, or 404 when not registered.</li>
 * </ul>
 * Thread agents and outside agents have separate namespaces (docs/domain.md §1): a thread agent's id may not lie in
 * the outside-agent namespace ({@code oa-…}, folded), an outside agent's always does; either mistake is 400
 * {@code {error: "invalid_fields", invalid[]}}.
 */
@Controller("/admin")
public class AdminController {

    private final SessionStore sessions;
    private final AgentDirectory settings;

    public AdminController(SessionStore sessions, AgentDirectory settings) {
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
        if (OutsideAgentIds.inNamespace(request.logicalAgentId())) {
            return invalid("logicalAgentId");
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
        if (OutsideAgentIds.inNamespace(agentId)) {
            return invalid("agentId");
        }
        Optional<AgentSettings> stored = settingsOf(request.browserAccess(), request.project(), request.wiki());
        if (stored.isEmpty()) {
            return projectMissing();
        }
        settings.putSettings(AgentKey.thread(agentId), stored.get());
        return HttpResponse.ok(request);
    }

    @Put("/outside-agents")
    public HttpResponse<?> putOutsideAgent(@Body OutsideAgentRequest request) {
        List<String> missing = Stream.of(Map.entry("issuer", Optional.ofNullable(request.issuer())),
                Map.entry("subject", Optional.ofNullable(request.subject())))
                .filter(field -> field.getValue().filter(v -> !v.isBlank()).isEmpty())
                .map(Map.Entry::getKey).toList();
        if (!missing.isEmpty()) {
            return HttpResponse.badRequest(Map.of("error", "missing_fields", "missing", missing));
        }
        String derived = OutsideAgentIds.derive(request.issuer(), request.subject());
        String agentId = Optional.ofNullable(request.logicalAgentId()).orElse(derived);
        if (!OutsideAgentIds.REGISTERED.matcher(agentId).matches()
                || OutsideAgentIds.DERIVED.matcher(agentId).matches() && !agentId.equals(derived)) {
            return invalid("logicalAgentId");
        }
        Optional<String> shared = Optional.ofNullable(request.sharesThreadAgent());
        if (shared.isPresent() && (shared.get().isBlank() || OutsideAgentIds.inNamespace(shared.get()))) {
            return invalid("sharesThreadAgent");
        }
        Optional<AgentSettings> stored = settingsOf(request.browserAccess(), request.project(), request.wiki());
        if (stored.isEmpty()) {
            return projectMissing();
        }
        OutsideAgentRegistration registration = new OutsideAgentRegistration(request.issuer(), request.subject(),
                agentId, shared);
        settings.register(registration, stored.get());
        return HttpResponse.ok(view(registration));
    }

    @Get("/outside-agents")
    public List<OutsideAgentView> listOutsideAgents() {
        return settings.registrations().stream().map(this::view).toList();
    }

    @Delete("/outside-agents")
    public HttpResponse<?> deleteOutsideAgent(@Nullable @QueryValue String issuer, @Nullable @QueryValue String subject) {
        if (issuer == null || subject == null) {
            return HttpResponse.badRequest(Map.of("error", "missing_fields", "missing", List.of("issuer", "subject")));
        }
        return settings.unregister(issuer, subject) ? HttpResponse.noContent() : HttpResponse.notFound();
    }

    private OutsideAgentView view(OutsideAgentRegistration registration) {
        AgentSettings current = settings.settings(AgentKey.outside(registration.logicalAgentId()));
        return new OutsideAgentView(registration.issuer(), registration.subject(), registration.logicalAgentId(),
                registration.sharesThreadAgent().orElse(null),
                new AgentSettingsRequest(current.browserAccess(),
                        new AgentSettingsRequest.Project(current.project().enabled(),
                                current.project().projectServiceProjectId().orElse(null)),
                        new AgentSettingsRequest.Wiki(current.wiki().read(), current.wiki().write())));
    }

    /** The settings a request asks for; empty when Project is enabled without a project. */
    private static Optional<AgentSettings> settingsOf(@Nullable Boolean browserAccess,
            AgentSettingsRequest.@Nullable Project project, AgentSettingsRequest.@Nullable Wiki wiki) {
        boolean projectEnabled = project != null && Boolean.TRUE.equals(project.enabled());
        Optional<String> projectId = Optional.ofNullable(project)
                .map(AgentSettingsRequest.Project::projectServiceProjectId).filter(id -> !id.isBlank());
        if (projectEnabled && projectId.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new AgentSettings(Boolean.TRUE.equals(browserAccess),
                new AgentSettings.Project(projectEnabled, projectId),
                new AgentSettings.Wiki(wiki != null && Boolean.TRUE.equals(wiki.read()),
                        wiki != null && Boolean.TRUE.equals(wiki.write()))));
    }

    private static HttpResponse<?> projectMissing() {
        return HttpResponse.badRequest(Map.of("error", "missing_fields",
                "missing", List.of("project.projectServiceProjectId")));
    }

    private static HttpResponse<?> invalid(String field) {
        return HttpResponse.badRequest(Map.of("error", "invalid_fields", "invalid", List.of(field)));
    }
}
