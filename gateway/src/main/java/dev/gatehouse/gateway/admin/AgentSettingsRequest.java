package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * {@code PUT /admin/agents/{agentId}}: the agent's settings, replaced whole. Absent flags are {@code false}.
 *
 * @param browserAccess grants {@code preview}
 * @param project       Project Service integration
 * @param wiki          wiki access
 * @param version       the version the writer read (as {@code If-Match} does; {@code 0}: none yet); a stale one is
 *                      409; absent (and no {@code If-Match}): last write wins
 */
@Serdeable
public record AgentSettingsRequest(@Nullable Boolean browserAccess, @Nullable Project project, @Nullable Wiki wiki,
        @Nullable Long version) {

    /** @param projectServiceProjectId required when {@code enabled} */
    @Serdeable
    public record Project(@Nullable Boolean enabled, @Nullable String projectServiceProjectId) {
    }

    @Serdeable
    public record Wiki(@Nullable Boolean read, @Nullable Boolean write) {
    }
}
