package dev.gatehouse.gateway.policy.api;

import java.util.List;

/**
 * The answer of {@code data.gatehouse.authz.visible_tools}.
 *
 * @param names          sorted tool names this caller may call
 * @param bundleRevision revision (SHA-256) of the bundle that decided
 * @param evalMicros     evaluation time in microseconds
 */
public record VisibleTools(List<String> names, String bundleRevision, long evalMicros) {
    public VisibleTools {
        names = List.copyOf(names);
    }
}
