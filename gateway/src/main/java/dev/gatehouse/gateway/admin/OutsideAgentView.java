package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentSettings;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * One registration as the admin API shows it: the members {@code PUT /admin/outside-agents} takes, flat, with the
 * registration's version (as {@link AgentSettingsView} shows a thread agent's settings).
 *
 * @param issuer            the token issuer
 * @param subject           the token subject
 * @param logicalAgentId    the agent id it acts as
 * @param sharesThreadAgent the thread agent whose wiki subtree it shares, or {@code null}
 * @param browserAccess     the agent's current settings, as for a thread agent
 * @param project           the agent's current settings, as for a thread agent
 * @param wiki              the agent's current settings, as for a thread agent
 * @param version           the registration's version (1 when first written, +1 for each write): {@code If-Match}
 *                          or the request's {@code version} for the next write
 */
@Serdeable
public record OutsideAgentView(String issuer, String subject, String logicalAgentId,
        @Nullable String sharesThreadAgent, boolean browserAccess, AgentSettingsView.Project project,
        AgentSettingsView.Wiki wiki, long version) {

    static OutsideAgentView of(AgentDirectory.Registered registered, AgentSettings settings) {
        return new OutsideAgentView(registered.registration().issuer(), registered.registration().subject(),
                registered.registration().logicalAgentId(),
                registered.registration().sharesThreadAgent().orElse(null), settings.browserAccess(),
                new AgentSettingsView.Project(settings.project().enabled(),
                        settings.project().projectServiceProjectId().orElse(null)),
                new AgentSettingsView.Wiki(settings.wiki().read(), settings.wiki().write()), registered.version());
    }
}
