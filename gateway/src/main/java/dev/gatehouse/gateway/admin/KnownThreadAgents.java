package dev.gatehouse.gateway.admin;

import dev.gatehouse.facts.ArgumentKeys;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The thread agents Gatehouse knows: those with settings or a current session (the host names an agent when it
 * attaches one), the ones the console lists. An id an operator types that is not one of them but folds
 * ({@link ArgumentKeys#fold}: case, script, accents, look-alike letters and punctuation) as one does reads as that
 * agent without being it: settings or a delivery profile stored under it would apply to no agent the operator meant
 * (a new user's trial: settings for a Cyrillic {@code а1} were taken beside {@code a1}, looking the same in every
 * list). The host's own ids are never refused for this: a session names the agent the host runs, and once attached,
 * an id is known and taken as it is. Checked against the store at the time of the write, not held by a constraint:
 * two replicas writing two look-alike new ids in the same moment can both succeed.
 */
@Singleton
class KnownThreadAgents {

    private final AgentListing settings;
    private final SessionAdmin sessions;

    KnownThreadAgents(AgentListing settings, SessionAdmin sessions) {
        this.settings = settings;
        this.sessions = sessions;
    }

    /** Every thread agent with settings or a current session. */
    TreeSet<String> all() {
        return known(false);
    }

    /**
     * Why an operator may not name {@code id}, reported on {@code field}: {@link ThreadAgentIds}'s rules, and an id
     * not known that reads as a known agent of either kind (an outside agent's {@code oa-o1} for {@code oa_o1}, which
     * is not in its namespace but reads as it); empty when it may.
     */
    Optional<FieldProblem> problem(String field, String id) {
        return ThreadAgentIds.problem(field, id)
                .or(() -> readsAs(known(true), id).map(other -> lookAlike(field, other)));
    }

    /** Every agent with settings or a current session; outside agents too when {@code outsideToo}. */
    private TreeSet<String> known(boolean outsideToo) {
        TreeSet<String> known = new TreeSet<>();
        Stream.concat(settings.agentIds().stream(), sessions.current().stream().map(SessionView::logicalAgentId))
                .filter(id -> outsideToo || !OutsideAgentIds.inNamespace(id)).forEach(known::add);
        return known;
    }

    /** The known agent {@code id} reads as when it is not one itself. */
    static Optional<String> readsAs(TreeSet<String> known, String id) {
        if (known.contains(id)) {
            return Optional.empty();
        }
        String folded = ArgumentKeys.fold(id);
        return known.stream().filter(other -> ArgumentKeys.fold(other).equals(folded)).findFirst();
    }

    static FieldProblem lookAlike(String field, String known) {
        return FieldProblem.invalid(field, "No thread agent has this id, but it reads as the "
                + (OutsideAgentIds.inNamespace(known) ? "outside" : "thread") + " agent " + known
                + ". Name the agent exactly as it is known.");
    }
}
