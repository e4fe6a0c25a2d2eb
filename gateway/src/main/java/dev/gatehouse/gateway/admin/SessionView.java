package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.auth.SessionStore;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/** One current session in {@code GET /admin/sessions}: never the token or its hash. */
@Serdeable
public record SessionView(String sessionId, String environmentId, String threadId, String providerSessionId,
        String providerInstanceId, String logicalAgentId, String t3ProjectId, @Nullable String agentName,
        String provider, String createdAt, String expiresAt) {

    static SessionView of(SessionStore.Listed listed) {
        var s = listed.session();
        return new SessionView(s.sessionId(), s.environmentId(), s.threadId(), s.providerSessionId(),
                s.providerInstanceId(), s.logicalAgentId(), s.t3ProjectId(), s.agentName().orElse(null),
                s.provider(), listed.createdAt().toString(), listed.expiresAt().toString());
    }
}
