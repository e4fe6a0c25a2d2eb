package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import java.util.List;

/**
 * The admin API of thread callers' sessions, behind {@link AdminCredentialFilter} ({@link SessionAdmin} does the
 * work, audited as the admin API credential):
 * <ul>
 * <li>{@code POST /admin/sessions} → 201 {@link CreatedSession}; 400 {@code {error, missing[]}} when a required field
 * is absent or blank, 400 {@code {error: "invalid_fields", invalid[]}} for an agent id in the outside-agent
 * namespace, 400 {@code {error: "unsupported_provider"}} for a provider kind outside {@code gatehouse.attach.providers}
 * or an externally managed local-only one;</li>
 * <li>{@code GET /admin/sessions} → 200 the current sessions ({@link SessionView}: never a token or hash);</li>
 * <li>{@code DELETE /admin/sessions/{id}} → 204, or 404 when no such current session; ends the caller's
 * handshake-era sessions too.</li>
 * </ul>
 * None takes a query parameter, and the writes no {@code If-Match} or {@code If-None-Match} (a session has no version):
 * either is 400 {@code invalid_fields} naming it. Everything is in the shared store, so any
 * replica may serve it. When the store does not answer: 503
 * {@code unavailable} with {@code Retry-After} ({@link StoreUnavailableHandler}).
 */
@Controller("/admin/sessions")
public class SessionAdminController {

    private final SessionAdmin sessions;

    public SessionAdminController(SessionAdmin sessions) {
        this.sessions = sessions;
    }

    @Post
    public HttpResponse<?> createSession(HttpRequest<?> http, @Nullable @Body byte[] body) {
        return AdminResponses.answer(QueryParameters.strict(http, List.of(), ConditionalHeaders.none(http,
                ConditionalHeaders.UNVERSIONED, AdminBodies.read(body, CreateSessionRequest.class))),
                request -> AdminResponses.answer(sessions.attach(request, Actor.ADMIN_API),
                        // The answer holds the session's bearer token: no cache may keep it (RFC 6749 §5.1).
                        created -> HttpResponse.created(created).header("Cache-Control", "no-store")
                                .header("Pragma", "no-cache")));
    }

    @Get
    public HttpResponse<?> listSessions(HttpRequest<?> request) {
        // Takes no parameter: ?agent= would look like a filter and list every session.
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), new AdminResult.Done<Void>(null)),
                none -> HttpResponse.ok(sessions.current()));
    }

    @Delete("/{sessionId}")
    public HttpResponse<?> revokeSession(HttpRequest<?> request, String sessionId) {
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), ConditionalHeaders.none(request,
                ConditionalHeaders.UNVERSIONED, new AdminResult.Done<>(sessionId))),
                id -> AdminResponses.answer(sessions.revoke(id, Actor.ADMIN_API), none -> HttpResponse.noContent()));
    }
}
