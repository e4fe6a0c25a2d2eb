package dev.gatehouse.gateway.admin;

import dev.gatehouse.facts.ArgumentKeys;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Which thread agent a registration may share (docs/domain.md §1): an outside agent reaches the wiki subtree of the
 * thread agent its {@code sharesThreadAgent} names, so a name that only looks like a thread agent's, or names one by
 * mistake, would hand it a subtree nobody meant to share, or none. Gatehouse knows a thread agent once it has
 * settings or a current session (the host names it when it attaches one): the thread agents the console lists.
 * Besides what {@link ThreadAgentIds} refuses of every thread agent id, a shared id is refused when:
 * <ul>
 * <li>it is not known itself but folds ({@link ArgumentKeys#fold}: case, script, accents, look-alike letters and
 * punctuation) as a known one does: it reads as that agent but is not it;</li>
 * <li>it is not known and is not printable ASCII: an id not seen yet may be named ahead of its first session (as the
 * settings routes allow), but only in letters that look as they mean, so a Cyrillic {@code а1} cannot stand for
 * {@code a1} before either exists. A known non-ASCII id (the host named it so) is accepted as it is.</li>
 * </ul>
 */
@Singleton
class SharedThreadAgents {

    private final KnownThreadAgents agents;

    SharedThreadAgents(KnownThreadAgents agents) {
        this.agents = agents;
    }

    /** Why {@code id} may not be shared, reported on {@code field}; empty when it may. */
    Optional<FieldProblem> problem(String field, String id) {
        Optional<FieldProblem> malformed = ThreadAgentIds.problem(field, id);
        if (malformed.isPresent()) {
            return malformed;
        }
        TreeSet<String> known = agents.all();
        if (known.contains(id)) {
            return Optional.empty();
        }
        Optional<String> lookalike = KnownThreadAgents.readsAs(known, id);
        if (lookalike.isPresent()) {
            return Optional.of(KnownThreadAgents.lookAlike(field, lookalike.get()));
        }
        if (!id.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return Optional.of(FieldProblem.invalid(field, "No thread agent has this id yet (none has settings or a"
                    + " current session), and one not seen yet may be named only in printable ASCII: other letters"
                    + " can look like another agent's id."));
        }
        return Optional.empty();
    }
}
