package dev.gatehouse.facade.wiki;

import java.util.Objects;

/**
 * The identity a Wiki call runs under, taken from the trusted context (docs/domain.md §7).
 *
 * @param agentId the logical agent id
 * @param root    the caller's subtree as the policy chose it (the decision's {@code wikiRoot} obligation); paths in
 *                results are relative to it
 */
public record WikiScope(String agentId, String root) {
    public WikiScope {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(root, "root");
    }
}
