package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.context.OutsideAgentIds;
import java.util.Optional;

/**
 * What the admin services accept as a thread agent's id (docs/domain.md §1): not blank, at most {@value #MAX_LENGTH}
 * characters, no control characters, and never in the outside-agent namespace ({@code oa-…}, folded), so the two
 * kinds of agent can never share an id.
 */
final class ThreadAgentIds {

    static final int MAX_LENGTH = 128;

    private ThreadAgentIds() {
    }

    /** Why {@code id} may not name a thread agent, reported on {@code field}; empty when it may. */
    static Optional<FieldProblem> problem(String field, String id) {
        if (id == null || id.isBlank()) {
            return Optional.of(FieldProblem.missing(field));
        }
        if (id.length() > MAX_LENGTH || id.chars().anyMatch(Character::isISOControl)) {
            return Optional.of(FieldProblem.invalid(field,
                    "An agent id has at most " + MAX_LENGTH + " characters and no control characters."));
        }
        if (OutsideAgentIds.inNamespace(id)) {
            return Optional.of(FieldProblem.invalid(field,
                    "Ids beginning with " + OutsideAgentIds.PREFIX + " belong to outside agents."));
        }
        return Optional.empty();
    }
}
