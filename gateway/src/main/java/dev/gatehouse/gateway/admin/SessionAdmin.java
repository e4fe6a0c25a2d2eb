package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import dev.gatehouse.gateway.admin.audit.Change;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.mcp.HandshakeSessions;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attaching and revoking thread callers' sessions (docs/domain.md §1), for the admin API and the console alike: one
 * set of checks, and every change audited ({@link ChangeAudit}) with the session id, never its token.
 */
@Singleton
public class SessionAdmin {

    private static final Logger LOG = LoggerFactory.getLogger(SessionAdmin.class);

    private final SessionStore sessions;
    private final HandshakeSessions handshakeSessions;
    private final AttachProperties attach;
    private final ChangeAudit audit;

    public SessionAdmin(SessionStore sessions, HandshakeSessions handshakeSessions, AttachProperties attach,
            ChangeAudit audit) {
        this.sessions = sessions;
        this.handshakeSessions = handshakeSessions;
        this.attach = attach;
        this.audit = audit;
    }

    /** The current sessions, newest first; never a token or hash. */
    public List<SessionView> current() {
        return sessions.current().stream().map(SessionView::of).toList();
    }

    /**
     * Attaches a session. Refused when a required field is missing or blank (every field but {@code agentName} and
     * {@code managed}), when a text is not one {@link StoredText} keeps, when the agent id is not a thread agent's
     * ({@link ThreadAgentIds}), or for a provider kind outside {@code gatehouse.attach.providers} or an externally
     * managed local-only one.
     *
     * @return the session id and its token, shown only here
     */
    public AdminResult<CreatedSession> attach(CreateSessionRequest request, Actor actor) {
        Map<String, String> required = new LinkedHashMap<>();
        required.put("environmentId", request.environmentId());
        required.put("threadId", request.threadId());
        required.put("providerSessionId", request.providerSessionId());
        required.put("providerInstanceId", request.providerInstanceId());
        required.put("logicalAgentId", request.logicalAgentId());
        required.put("t3ProjectId", request.t3ProjectId());
        required.put("provider", request.provider());
        List<FieldProblem> missing = new ArrayList<>();
        required.forEach((field, value) -> {
            if (value == null || value.isBlank()) {
                missing.add(FieldProblem.missing(field));
            }
        });
        if (!missing.isEmpty()) {
            return new AdminResult.Refused<>(missing);
        }
        Map<String, String> texts = new LinkedHashMap<>(required);
        texts.put("agentName", request.agentName());
        List<FieldProblem> invalid = StoredText.problems(texts);
        if (!invalid.isEmpty()) {
            return new AdminResult.Refused<>(invalid);
        }
        Optional<FieldProblem> agent = ThreadAgentIds.problem("logicalAgentId", request.logicalAgentId());
        if (agent.isPresent()) {
            return AdminResult.refused(agent.get());
        }
        Optional<String> refusal = providerRefusal(request.provider(), request.managed());
        if (refusal.isPresent()) {
            return AdminResult.refused(new FieldProblem("provider", FieldProblem.Kind.UNSUPPORTED, refusal.get()));
        }
        String token = SessionTokens.mint();
        AgentSession session = new AgentSession(SessionTokens.newId(), request.environmentId(), request.threadId(),
                request.providerSessionId(), request.providerInstanceId(), request.logicalAgentId(),
                request.t3ProjectId(), Optional.ofNullable(request.agentName()).filter(n -> !n.isBlank()),
                request.provider());
        return audit.write(actor, () -> {
            sessions.put(token, session);
            return ChangeAudit.Written.changed(
                    new AdminResult.Done<>(new CreatedSession(session.sessionId(), token)),
                    Change.of("session.attach", session.sessionId(), Optional.of(session.logicalAgentId()),
                            "attached thread " + session.threadId() + " (provider " + session.provider() + ")"));
        });
    }

    /**
     * Revokes a current session: its token stops working on the next request on every replica, and the caller's
     * handshake-era sessions end.
     *
     * @return {@link AdminResult.NotFound} when no current session has this id
     */
    public AdminResult<Void> revoke(String sessionId, Actor actor) {
        AdminResult<Void> result = audit.write(actor, () -> {
            Optional<SessionStore.Listed> listed = sessions.current().stream()
                    .filter(s -> s.session().sessionId().equals(sessionId)).findFirst();
            if (listed.isEmpty() || !sessions.revoke(sessionId)) {
                return ChangeAudit.Written.unchanged(new AdminResult.NotFound<Void>());
            }
            AgentSession session = listed.get().session();
            return ChangeAudit.Written.changed(new AdminResult.Done<Void>(null),
                    Change.of("session.revoke", sessionId, Optional.of(session.logicalAgentId()),
                            "revoked the session of thread " + session.threadId()));
        });
        if (result instanceof AdminResult.Done<Void>) {
            try {
                handshakeSessions.endAllOf(Authenticated.ThreadCaller.bindingKeyOf(sessionId));
            } catch (StoreUnavailableException e) {
                // The token is revoked already, so those sessions are refused at authentication; the bindings go idle.
                LOG.warn("handshake bindings of a revoked session not removed: {}", e.getMessage());
            }
        }
        return result;
    }

    /** Why {@code provider} may not be attached, if it may not. */
    private Optional<String> providerRefusal(String provider, String managed) {
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
}
