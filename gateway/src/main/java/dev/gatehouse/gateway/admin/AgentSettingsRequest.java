package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.context.AgentSettings;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.Optional;

/**
 * {@code PUT /admin/agents/{agentId}} and the console's settings form: the agent's settings, replaced whole. Absent
 * flags are {@code false}.
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

    /** The settings field a missing project binding is reported on. */
    static final String PROJECT_ID_FIELD = "project.projectServiceProjectId";

    /** @param projectServiceProjectId required when {@code enabled} */
    @Serdeable
    public record Project(@Nullable Boolean enabled, @Nullable String projectServiceProjectId) {
    }

    @Serdeable
    public record Wiki(@Nullable Boolean read, @Nullable Boolean write) {
    }

    /** The settings asked for; empty when Project is enabled without a project ({@link #PROJECT_ID_FIELD}). */
    Optional<AgentSettings> settings() {
        return settings(browserAccess, project, wiki);
    }

    /** The one reading of settings fields, for agents and outside-agent registrations alike. */
    static Optional<AgentSettings> settings(@Nullable Boolean browserAccess, @Nullable Project project,
            @Nullable Wiki wiki) {
        boolean projectEnabled = project != null && Boolean.TRUE.equals(project.enabled());
        Optional<String> projectId = Optional.ofNullable(project).map(Project::projectServiceProjectId)
                .filter(id -> !id.isBlank());
        if (projectEnabled && projectId.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new AgentSettings(Boolean.TRUE.equals(browserAccess),
                new AgentSettings.Project(projectEnabled, projectId),
                new AgentSettings.Wiki(wiki != null && Boolean.TRUE.equals(wiki.read()),
                        wiki != null && Boolean.TRUE.equals(wiki.write()))));
    }

}
