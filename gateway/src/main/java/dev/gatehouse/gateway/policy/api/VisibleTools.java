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

    /** This listing as answered again in {@code micros} (a memo hit), everything else as it was. */
    public VisibleTools withEvalMicros(long micros) {
        return new VisibleTools(names, bundleRevision, micros, bundleKeyId);
    }

    /** A listing without a known verifying key. */
    public VisibleTools(List<String> names, String bundleRevision, long evalMicros) {
        this(names, bundleRevision, evalMicros, Optional.empty());
    }
}
