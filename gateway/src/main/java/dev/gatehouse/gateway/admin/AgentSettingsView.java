package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.context.AgentSettingsStore;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * {@code GET /admin/agents/{agentId}} and the answer to {@code PUT}: the stored settings and their version (also
 * sent as {@code ETag: "<version>"}).
 */
@Serdeable
public record AgentSettingsView(String agentId, boolean browserAccess, Project project, Wiki wiki, long version) {

    @Serdeable
    public record Project(boolean enabled, @Nullable String projectServiceProjectId) {
    }

    @Serdeable
    public record Wiki(boolean read, boolean write) {
    }

    static AgentSettingsView of(String agentId, AgentSettingsStore.Versioned stored) {
        return new AgentSettingsView(agentId, stored.settings().browserAccess(),
                new Project(stored.settings().project().enabled(),
                        stored.settings().project().projectServiceProjectId().orElse(null)),
                new Wiki(stored.settings().wiki().read(), stored.settings().wiki().write()), stored.version());
    }
}
