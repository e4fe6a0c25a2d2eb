package dev.gatehouse.facade.wiki;

import java.util.Objects;

/**
 * The identity a Wiki call runs under, taken from the trusted context (docs/domain.md §7).
 *
 * @param agentId the logical agent id
 * @param root    the agent's subtree, {@code agents/<agentId>}; paths in results are relative to it
 */
public record WikiScope(String agentId, String root) {
    public WikiScope {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(root, "root");
    }
}
