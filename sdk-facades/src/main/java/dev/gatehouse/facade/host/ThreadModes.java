package dev.gatehouse.facade.host;

import java.util.Objects;

/** A resolved pair of modes (docs/domain.md §2); never {@code inherit}. */
public record ThreadModes(String runtimeMode, String interactionMode) {
    public ThreadModes {
        Objects.requireNonNull(runtimeMode, "runtimeMode");
        Objects.requireNonNull(interactionMode, "interactionMode");
    }
}
