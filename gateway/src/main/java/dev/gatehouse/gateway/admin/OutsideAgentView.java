package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * One registration as the admin API shows it.
 *
 * @param issuer            the token issuer
 * @param subject           the token subject
 * @param logicalAgentId    the agent id it acts as
 * @param sharesThreadAgent the thread agent whose wiki subtree it shares, or {@code null}
 * @param settings          the agent's current settings
 */
@Serdeable
public record OutsideAgentView(String issuer, String subject, String logicalAgentId,
        @Nullable String sharesThreadAgent, AgentSettingsRequest settings) {
}
