package dev.gatehouse.gateway.context;

import java.util.Objects;
import java.util.Optional;

/**
 * The server-side identity of one caller for one MCP call (docs/domain.md §1): what handlers and facades act as.
 * Built only by the PIP from the authenticated credential, the session store and the agent's settings; never from
 * tool arguments, request headers other than the credential, or {@code _meta}. Whether the caller may act is not
 * here: that is the PDP's decision over {@link dev.gatehouse.facts.CallerFacts}.
 *
 * @param environmentId           the host environment the caller belongs to
 * @param callerKind              {@code thread} or {@code outside_agent}
 * @param threadId                the calling thread; empty for outside agents
 * @param providerSessionId       the agent host's provider session; empty for outside agents
 * @param providerInstanceId      the provider instance the session runs on; empty for outside agents
 * @param logicalAgentId          the stable agent id: Project Service and Wiki agent, decision log
 * @param agentName               display only; never used for authorization, routing or idempotency
 * @param t3ProjectId             the T3 project of the calling thread; empty for outside agents
 * @param projectServiceProjectId the Project Service project the agent's settings bind; empty when they bind none
 *                                (whether a call may use it is the policy's decision: {@code project_not_bound})
 * @param provider                the provider kind of a thread caller's session ({@code codex}, {@code claude} …);
 *                                recorded in the decision log only, never sent to the PDP
 *
 * <p>The caller's wiki subtree is not here: the policy chooses it from the caller facts and returns it as the
 * obligation {@code wikiRoot} (docs/domain.md §7).
 */
public record TrustedContext(
        String environmentId,
        CallerKind callerKind,
        Optional<String> threadId,
        Optional<String> providerSessionId,
        Optional<String> providerInstanceId,
        String logicalAgentId,
        String agentName,
        Optional<String> t3ProjectId,
        Optional<String> projectServiceProjectId,
        Optional<String> provider) {

    public TrustedContext {
        Objects.requireNonNull(environmentId, "environmentId");
        Objects.requireNonNull(callerKind, "callerKind");
        Objects.requireNonNull(logicalAgentId, "logicalAgentId");
        Objects.requireNonNull(provider, "provider");
    }

    /** Caller kinds of docs/domain.md §1, spelled as in the decision input. */
    public enum CallerKind {
        THREAD("thread"),
        OUTSIDE_AGENT("outside_agent");

        private final String wire;

        CallerKind(String wire) {
            this.wire = wire;
        }

        /** The value used in the decision input and the decision log. */
        public String wire() {
            return wire;
        }
    }
}
