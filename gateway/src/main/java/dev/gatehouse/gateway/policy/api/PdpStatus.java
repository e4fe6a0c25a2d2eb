package dev.gatehouse.gateway.policy.api;

import java.util.Optional;

/**
 * PDP health for logs and the health endpoint.
 *
 * @param engine         {@code embedded} or {@code remote}
 * @param bundleRevision the revision in use, empty when no bundle is active
 * @param fault          why the PDP denies everything, empty when healthy
 */
public record PdpStatus(String engine, Optional<String> bundleRevision, Optional<PolicyFault> fault) {

    /** True when a bundle is active and the last self-test passed. */
    public boolean healthy() {
        return fault.isEmpty() && bundleRevision.isPresent();
    }
}
