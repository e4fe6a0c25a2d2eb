package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.EvaluatingPdp;
import dev.gatehouse.gateway.policy.PolicyDocument;
import dev.gatehouse.gateway.policy.api.CallerFacts;
import dev.gatehouse.gateway.policy.api.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ThreadShell;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * What the served policy says an agent holds now (docs/domain.md §4), computed by the PDP that decides calls from the
 * agent's stored settings, for the admin API and the console alike. A thread agent holds its scopes as a thread
 * caller; an outside agent ({@code oa-…}) as an outside agent approved at a ceiling (the ceiling comes with each
 * token, so it is asked for).
 */
@Singleton
public class HeldCapabilities {

    /** The ceiling an outside agent is shown at unless another is asked for. */
    public static final String DEFAULT_CEILING = "read-only";

    private final EvaluatingPdp pdp;
    private final AgentDirectory directory;

    public HeldCapabilities(EvaluatingPdp pdp, AgentDirectory directory) {
        this.pdp = pdp;
        this.directory = directory;
    }

    /** The caller kind {@code agentId} belongs to. */
    public static CallerKind kindOf(String agentId) {
        return OutsideAgentIds.inNamespace(agentId) ? CallerKind.OUTSIDE_AGENT : CallerKind.THREAD;
    }

    /**
     * The scopes {@code agentId} holds (entry point {@code held_capabilities}): a JSON array of scope names, with the
     * revision that answered; not decided when the PDP cannot answer (no bundle, remote OPA down).
     *
     * @param ceiling an outside agent's approved ceiling; ignored for a thread agent
     */
    public PolicyOutcome<PolicyDocument> of(String agentId, Optional<String> ceiling) {
        CallerKind kind = kindOf(agentId);
        boolean outside = kind == CallerKind.OUTSIDE_AGENT;
        AgentSettings settings = directory.settings(new AgentKey(kind, agentId));
        CallerFacts facts = new CallerFacts(kind.wire(), agentId, Optional.empty(), Optional.empty(),
                outside ? Optional.empty() : Optional.of(ThreadShell.of(ThreadShell.Lookup.NOT_FOUND)),
                outside ? Optional.of(ceiling.orElse(DEFAULT_CEILING)) : Optional.empty(),
                new CallerFacts.Settings(settings.browserAccess(), settings.project().enabled(), settings.wiki().read(),
                        settings.wiki().write()), Optional.empty());
        return pdp.document(Entrypoint.HELD_CAPABILITIES,
                DecisionInput.forListing(facts, TrustedContext.ownWikiRoot(kind, agentId)));
    }

    /** The access table as served (entry point {@code access_table}). */
    public PolicyOutcome<PolicyDocument> accessTable() {
        CallerFacts nobody = new CallerFacts("thread", "admin", Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), new CallerFacts.Settings(false, false, false, false), Optional.empty());
        return pdp.document(Entrypoint.ACCESS_TABLE, DecisionInput.forListing(nobody, "agents/admin"));
    }
}
