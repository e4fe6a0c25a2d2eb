package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import dev.gatehouse.gateway.mcp.HandshakeSessions;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API used by the agent host and operators, behind {@link AdminCredentialFilter}. Everything it writes is
 * in the shared store, so any replica may serve it and every replica sees the result at its next call after the
 * store's change notification, at the latest 1 s after the write (store.StoreChanges):
 * <ul>
 * <li>{@code POST /admin/sessions} → 201 {@link CreatedSession}; 400 {@code {error, missing[]}} when a required field
 * is absent or blank, 400 {@code {error: "unsupported_provider"}} for a provider kind outside
 * {@code gatehouse.attach.providers} or an externally managed local-only one;</li>
 * <li>{@code GET /admin/sessions} → 200 the current sessions ({@link SessionView}: never a token or hash);</li>
 * <li>{@code DELETE /admin/sessions/{id}} → 204, or 404 when no such current session; ends the caller's
 * handshake-era sessions too;</li>
 * <li>{@code GET /admin/agents/{agentId}} → 200 {@link AgentSettingsView} with {@code ETag}, 404 when never set;</li>
 * <li>{@code PUT /admin/agents/{agentId}} → 200 with the stored settings and their new version; 400 when Project is
 * enabled without a project; 409 {@code {error: "version_conflict", currentVersion}} when {@code If-Match} or the
 * body's {@code version} is stale. Applies from the agent's next call, in every live session, on every replica.</li>
 * <li>{@code PUT /admin/outside-agents} ({@link OutsideAgentRequest}) → 200 {@link OutsideAgentView}: registers an
 * outside agent by token issuer and subject, with its logical agent id and settings;
 * {@code GET /admin/outside-agents} → 200 {@code [OutsideAgentView]};
 * {@code DELETE /admin/outside-agents?issuer=&subject=} → 204, or 404 when not registered.</li>
 * </ul>
 * Thread agents and outside agents have separate namespaces (docs/domain.md §1): a thread agent's id (a session's
 * {@code logicalAgentId}, the {@code {agentId}} of the settings routes, a registration's {@code sharesThreadAgent})
 * is checked one way everywhere ({@link OutsideAgentIds#isThreadAgentId}: not blank, and not in the outside-agent
 * namespace {@code oa-…} even by look), an outside agent's always lies in it; either mistake is 400
 * {@code {error: "invalid_fields", invalid: [<field>]}}.
 * When the store does not answer: 503 {@code unavailable} with {@code Retry-After} ({@link StoreUnavailableHandler}).
 */
@Controller("/admin")
public class AdminController {

    private static final Logger LOG = LoggerFactory.getLogger(AdminController.class);

    private final SessionStore sessions;
    private final AgentSettingsStore settings;
    private final AgentDirectory directory;
    private final HandshakeSessions handshakeSessions;
    private final AttachProperties attach;

    public AdminController(SessionStore sessions, AgentSettingsStore settings, AgentDirectory directory,
            HandshakeSessions handshakeSessions, AttachProperties attach) {
        this.sessions = sessions;
        this.settings = settings;
        this.directory = directory;
        this.handshakeSessions = handshakeSessions;
        this.attach = attach;
    }

    @Post("/sessions")
    public HttpResponse<?> createSession(@Body CreateSessionRequest request) {
        List<String> missing = new ArrayList<>();
        Stream.of(Map.entry("environmentId", Optional.ofNullable(request.environmentId())),
                Map.entry("threadId", Optional.ofNullable(request.threadId())),
                Map.entry("providerSessionId", Optional.ofNullable(request.providerSessionId())),
                Map.entry("providerInstanceId", Optional.ofNullable(request.providerInstanceId())),
                Map.entry("logicalAgentId", Optional.ofNullable(request.logicalAgentId())),
                Map.entry("t3ProjectId", Optional.ofNullable(request.t3ProjectId())),
                Map.entry("provider", Optional.ofNullable(request.provider())))
                .filter(field -> field.getValue().filter(v -> !v.isBlank()).isEmpty())
                .forEach(field -> missing.add(field.getKey()));
        if (!missing.isEmpty()) {
            return HttpResponse.badRequest(Map.of("error", "missing_fields", "missing", missing));
        }
        if (!OutsideAgentIds.isThreadAgentId(request.logicalAgentId())) {
            return invalid("logicalAgentId");
        }
        Optional<String> refusal = providerRefusal(request.provider(), request.managed());
        if (refusal.isPresent()) {
            return HttpResponse.badRequest(Map.of("error", "unsupported_provider", "message", refusal.get()));
        }
        String token = SessionTokens.mint();
        AgentSession session = new AgentSession(SessionTokens.newId(), request.environmentId(), request.threadId(),
                request.providerSessionId(), request.providerInstanceId(), request.logicalAgentId(),
                request.t3ProjectId(), Optional.ofNullable(request.agentName()).filter(n -> !n.isBlank()),
                request.provider());
        sessions.put(token, session);
        return HttpResponse.created(new CreatedSession(session.sessionId(), token));
    }

    @Get("/sessions")
    public List<SessionView> listSessions() {
        return sessions.current().stream().map(SessionView::of).toList();
    }

    @Delete("/sessions/{sessionId}")
    public HttpResponse<?> revokeSession(String sessionId) {
        if (!sessions.revoke(sessionId)) {
            return HttpResponse.notFound();
        }
        try {
            handshakeSessions.endAllOf(Authenticated.ThreadCaller.bindingKeyOf(sessionId));
        } catch (StoreUnavailableException e) {
            // The token is revoked already, so those sessions are refused at authentication; the bindings go idle.
            LOG.warn("handshake bindings of a revoked session not removed: {}", e.getMessage());
        }
        return HttpResponse.noContent();
    }

    @Get("/agents/{agentId}")
    public HttpResponse<?> getAgentSettings(String agentId) {
        return settings.find(agentId)
                .<HttpResponse<?>>map(stored -> HttpResponse.ok(AgentSettingsView.of(agentId, stored))
                        .header("ETag", etag(stored.version())))
                .orElseGet(HttpResponse::notFound);
    }

    @Put("/agents/{agentId}")
    public HttpResponse<?> putAgentSettings(String agentId, @Body AgentSettingsRequest request,
            @Nullable @Header("If-Match") String ifMatch) {
        if (!OutsideAgentIds.isThreadAgentId(agentId)) {
            return invalid("agentId");
        }
        boolean projectEnabled = request.project() != null && Boolean.TRUE.equals(request.project().enabled());
        Optional<String> projectId = Optional.ofNullable(request.project())
                .map(AgentSettingsRequest.Project::projectServiceProjectId).filter(id -> !id.isBlank());
        if (projectEnabled && projectId.isEmpty()) {
            return HttpResponse.badRequest(Map.of("error", "missing_fields",
                    "missing", List.of("project.projectServiceProjectId")));
        }
        Optional<OptionalLong> expected = expectedVersion(ifMatch, request.version());
        if (expected.isEmpty()) {
            return HttpResponse.badRequest(Map.of("error", "invalid_version",
                    "message", "If-Match and version must be one non-negative version number and agree"));
        }
        AgentSettings stored = new AgentSettings(Boolean.TRUE.equals(request.browserAccess()),
                new AgentSettings.Project(projectEnabled, projectId),
                new AgentSettings.Wiki(request.wiki() != null && Boolean.TRUE.equals(request.wiki().read()),
                        request.wiki() != null && Boolean.TRUE.equals(request.wiki().write())));
        AgentSettingsStore.Write write = settings.put(agentId, stored, expected.get());
        if (write instanceof AgentSettingsStore.Write.Conflict conflict) {
            return HttpResponse.status(HttpStatus.CONFLICT).header("ETag", etag(conflict.currentVersion()))
                    .body(Map.of("error", "version_conflict", "currentVersion", conflict.currentVersion()));
        }
        AgentSettingsStore.Versioned written = ((AgentSettingsStore.Write.Stored) write).stored();
        return HttpResponse.ok(AgentSettingsView.of(agentId, written)).header("ETag", etag(written.version()));
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
        if (shared.isPresent() && !OutsideAgentIds.isThreadAgentId(shared.get())) {
            return invalid("sharesThreadAgent");
        }
        Optional<AgentSettings> stored = settingsOf(request.browserAccess(), request.project(), request.wiki());
        if (stored.isEmpty()) {
            return projectMissing();
        }
        OutsideAgentRegistration registration = new OutsideAgentRegistration(request.issuer(), request.subject(),
                agentId, shared);
        directory.register(registration, stored.get());
        return HttpResponse.ok(view(registration));
    }

    @Get("/outside-agents")
    public List<OutsideAgentView> listOutsideAgents() {
        return directory.registrations().stream().map(this::view).toList();
    }

    @Delete("/outside-agents")
    public HttpResponse<?> deleteOutsideAgent(@Nullable @QueryValue String issuer, @Nullable @QueryValue String subject) {
        if (issuer == null || subject == null) {
            return HttpResponse.badRequest(Map.of("error", "missing_fields", "missing", List.of("issuer", "subject")));
        }
        return directory.unregister(issuer, subject) ? HttpResponse.noContent() : HttpResponse.notFound();
    }

    private OutsideAgentView view(OutsideAgentRegistration registration) {
        AgentSettings current = directory.settings(AgentKey.outside(registration.logicalAgentId()));
        return new OutsideAgentView(registration.issuer(), registration.subject(), registration.logicalAgentId(),
                registration.sharesThreadAgent().orElse(null),
                new AgentSettingsRequest(current.browserAccess(),
                        new AgentSettingsRequest.Project(current.project().enabled(),
                                current.project().projectServiceProjectId().orElse(null)),
                        new AgentSettingsRequest.Wiki(current.wiki().read(), current.wiki().write()), null));
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

    /** Why {@code provider} may not be attached, if it may not. */
    private Optional<String> providerRefusal(String provider, @Nullable String managed) {
        String kind = provider.strip().toLowerCase(Locale.ROOT);
        if (!attach.getProviders().contains(kind) || !kind.equals(provider)) {
            return Optional.of("provider must be one of " + attach.getProviders());
        }
        String management = managed == null || managed.isBlank() ? "local" : managed;
        if (!management.equals("local") && !management.equals("external")) {
            return Optional.of("managed must be local or external");
        }
        if (management.equals("external")) {
            return attach.localOnlyName(kind)
                    .map(name -> "externally managed " + name + " servers are not supported in this phase");
        }
        return Optional.empty();
    }

    /**
     * The expected version from {@code If-Match} ({@code "3"}, {@code W/"3"} or {@code 3}) and/or the body: empty
     * optional when malformed or contradictory, empty {@link OptionalLong} when neither was sent.
     */
    private static Optional<OptionalLong> expectedVersion(@Nullable String ifMatch, @Nullable Long bodyVersion) {
        OptionalLong header = OptionalLong.empty();
        if (ifMatch != null && !ifMatch.isBlank()) {
            String tag = ifMatch.strip();
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")) {
                tag = tag.substring(1, tag.length() - 1);
            }
            if (!tag.matches("[0-9]{1,18}")) {
                return Optional.empty();
            }
            header = OptionalLong.of(Long.parseLong(tag));
        }
        if (bodyVersion != null) {
            if (bodyVersion < 0 || (header.isPresent() && header.getAsLong() != bodyVersion)) {
                return Optional.empty();
            }
            return Optional.of(OptionalLong.of(bodyVersion));
        }
        return Optional.of(header);
    }

    private static String etag(long version) {
        return "\"" + version + "\"";
    }
}
