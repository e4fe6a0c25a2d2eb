package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.facts.ThreadShell;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;

/**
 * What the served policy says an agent holds now (docs/domain.md §4), computed by the revision that decides calls
 * from the agent's stored settings, for the admin API and the console alike. A thread agent holds its scopes as a
 * thread caller; an outside agent ({@code oa-…}) as an outside agent whose token carries {@code ceiling}, passed to
 * the policy as given (the ceiling comes with each token; without one, only what its settings grant to a caller
 * that may change nothing: the policy decides which ceilings allow what).
 */
@Singleton
public class HeldCapabilities {

    /**
     * The scopes one agent holds, and the revision that said so.
     *
     * @param scopes   the capability scopes, sorted
     * @param revision the manifest revision that answered
     */
    public record Held(List<String> scopes, String revision) {
    }

    private final PolicyDecisionPoint pdp;
    private final AgentDirectory directory;

    public HeldCapabilities(PolicyDecisionPoint pdp, AgentDirectory directory) {
        this.pdp = pdp;
        this.directory = directory;
    }

    /** The caller kind {@code agentId} belongs to. */
    public static CallerKind kindOf(String agentId) {
        return OutsideAgentIds.inNamespace(agentId) ? CallerKind.OUTSIDE_AGENT : CallerKind.THREAD;
    }

    /**
     * The scopes {@code agentId} holds (entry point {@code held_capabilities}); not decided when the PDP cannot
     * answer (no revision serving, remote OPA down).
     *
     * @param ceiling an outside agent's approved ceiling, as a token would carry it; ignored for a thread agent
     */
    public PolicyOutcome<Held> of(String agentId, Optional<String> ceiling) {
        Optional<ServedPolicy> served = pdp.serving();
        if (served.isEmpty()) {
            return pdp.noRevision();
        }
        CallerKind kind = kindOf(agentId);
        boolean outside = kind == CallerKind.OUTSIDE_AGENT;
        AgentSettings settings = directory.settings(new AgentKey(kind, agentId));
        CallerFacts facts = new CallerFacts(kind.wire(), agentId, Optional.empty(), Optional.empty(),
                outside ? Optional.empty() : Optional.of(ThreadShell.of(ThreadShell.Lookup.NOT_FOUND)),
                outside ? ceiling : Optional.empty(), settings.facts(), Optional.empty());
        PolicyOutcome<List<String>> scopes = served.get().heldCapabilities(DecisionInput.forListing(facts));
        return scopes instanceof PolicyOutcome.Decided<List<String>> decided
                ? new PolicyOutcome.Decided<>(new Held(decided.value(), served.get().revision()))
                : new PolicyOutcome.Failed<>(((PolicyOutcome.Failed<List<String>>) scopes).fault());
    }

    /** The ceilings the served revision knows, for choosing one to ask about; none while no revision serves. */
    public List<String> ceilings() {
        return pdp.serving().map(served -> served.contents().ceilings()).orElse(List.of());
    }
}
