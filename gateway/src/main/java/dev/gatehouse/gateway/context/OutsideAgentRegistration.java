package dev.gatehouse.gateway.context;

import java.util.Objects;
import java.util.Optional;

/**
 * An operator's server-side registration of one outside agent (docs/domain.md §1): the token issuer and subject it
 * authenticates as, and the logical agent it acts as. Its settings are stored beside it under
 * {@link AgentKey#outside(String)}.
 *
 * @param issuer            the token's {@code iss}, compared exactly
 * @param subject           the token's {@code sub}, compared exactly
 * @param logicalAgentId    the agent id, always in the outside-agent namespace ({@link OutsideAgentIds#PREFIX})
 * @param sharesThreadAgent a thread agent whose wiki subtree this agent may use too, stated explicitly; a fact the
 *                          policy decides on, never applied by Java on its own
 */
public record OutsideAgentRegistration(String issuer, String subject, String logicalAgentId,
        Optional<String> sharesThreadAgent) {

    public OutsideAgentRegistration {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(logicalAgentId, "logicalAgentId");
        Objects.requireNonNull(sharesThreadAgent, "sharesThreadAgent");
    }
}
