package dev.gatehouse.gateway.policy.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer of {@code data.gatehouse.authz.visible_tools}.
 *
 * @param names          sorted tool names this caller may call
 * @param bundleRevision the manifest revision of the one bundle that decided
 * @param evalMicros     evaluation time in microseconds
 * @param bundleKeyId    the id of the key that verified that bundle, when known (see {@link Decision})
 */
public record VisibleTools(List<String> names, String bundleRevision, long evalMicros,
        Optional<String> bundleKeyId) {
    public VisibleTools {
        names = List.copyOf(names);
        Objects.requireNonNull(bundleKeyId, "bundleKeyId");
    }

    /** A listing without a known verifying key. */
    public VisibleTools(List<String> names, String bundleRevision, long evalMicros) {
        this(names, bundleRevision, evalMicros, Optional.empty());
    }
}
