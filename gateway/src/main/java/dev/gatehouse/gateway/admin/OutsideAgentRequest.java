package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * {@code PUT /admin/outside-agents}: registers the outside agent that authenticates with tokens of {@code issuer}
 * and {@code subject} (docs/domain.md §1), replacing any registration for the pair, with its settings replaced whole
 * (absent flags are {@code false}). The same members as {@link OutsideAgentView}, flat as for
 * {@code PUT /admin/agents/{id}}.
 *
 * @param issuer            the token issuer, compared exactly; required, an OAuth issuer identifier
 *                          ({@link RegistrationIssuers})
 * @param subject           the token subject, compared exactly; required
 * @param logicalAgentId    the agent id, in the outside-agent namespace ({@code oa-…}) and no other registration's;
 *                          when absent, the id derived from issuer and subject
 * @param sharesThreadAgent a thread agent whose wiki subtree this agent uses, stated explicitly ({@link
 *                          SharedThreadAgents}); absent: none
 * @param browserAccess     as for {@code PUT /admin/agents/{id}}
 * @param project           as for {@code PUT /admin/agents/{id}}
 * @param wiki              as for {@code PUT /admin/agents/{id}}
 * @param version           the registration's version the writer read (as {@code If-Match} does; {@code 0}: none
 *                          yet); a stale one is 409; absent (and no {@code If-Match}): last write wins
 */
@Serdeable
public record OutsideAgentRequest(@Nullable String issuer, @Nullable String subject, @Nullable String logicalAgentId,
        @Nullable String sharesThreadAgent, @Nullable Boolean browserAccess, @Nullable AgentSettingsRequest.Project project,
        @Nullable AgentSettingsRequest.Wiki wiki, @Nullable Long version) {
}
