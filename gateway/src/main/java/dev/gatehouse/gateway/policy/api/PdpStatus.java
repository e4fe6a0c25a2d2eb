package dev.gatehouse.gateway.policy.api;

import java.util.Optional;

/**
 * PDP health for logs, readiness and the health endpoint.
 *
 * @param engine         {@code embedded} or {@code remote}
 * @param bundleRevision the manifest revision serving, empty when no bundle is active
 * @param fault          why the PDP denies everything (for the embedded engine: "no verified bundle" and why),
 *                       empty when healthy
 * @param bundleKeyId    the id of the key that verified the serving bundle, when known
 * @param lastRefusal    why the latest bundle offered was not activated (not verified, older than the serving one,
 *                       failed its self-test, unreadable download); the serving revision keeps serving. Empty when
 *                       the latest one offered was activated or none was refused
 */
public record PdpStatus(String engine, Optional<String> bundleRevision, Optional<PolicyFault> fault,
        Optional<String> bundleKeyId, Optional<PolicyFault> lastRefusal) {

    /** A status without key id or refusal (the remote engine). */
    public PdpStatus(String engine, Optional<String> bundleRevision, Optional<PolicyFault> fault) {
        this(engine, bundleRevision, fault, Optional.empty(), Optional.empty());
    }

    /** True when a bundle is active and the last self-test passed. */
    public boolean healthy() {
        return fault.isEmpty() && bundleRevision.isPresent();
    }
}
