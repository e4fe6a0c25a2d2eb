package dev.gatehouse.facts;

import java.util.Objects;

/**
 * The two names of the {@code T3-Mode-Limit} header, one per axis of docs/domain.md §2, exactly as received
 * ({@link VocabularyName well-formed} words). Which names are modes, and what a limit allows, is the policy's
 * business ({@code mode_limit_unknown}).
 *
 * @param runtimeMode     the first name: the runtime axis
 * @param interactionMode the second name: the interaction axis
 */
public record Modes(String runtimeMode, String interactionMode) {

    public Modes {
        Objects.requireNonNull(runtimeMode, "runtimeMode");
        Objects.requireNonNull(interactionMode, "interactionMode");
    }
}
