package dev.gatehouse.gateway.policy.api;

import java.util.Objects;

/**
 * A pair of modes on the two axes of docs/domain.md §2, spelled as on the wire
 * ({@code approval-required|auto-accept-edits|auto|full-access}, {@code plan|default}). Used for the
 * {@code T3-Mode-Limit} header fact; which pairs are valid and what they allow is the policy's business.
 */
public record Modes(String runtimeMode, String interactionMode) {

    public Modes {
        Objects.requireNonNull(runtimeMode, "runtimeMode");
        Objects.requireNonNull(interactionMode, "interactionMode");
    }
}
