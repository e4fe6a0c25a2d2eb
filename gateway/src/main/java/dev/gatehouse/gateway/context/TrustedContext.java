package dev.gatehouse.gateway.context;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The server-side identity of one caller for one MCP call (DOMAIN.md §1). Built only by the PIP from the
 * authenticated credential, the session store, the agent's live settings and the host facade; never from tool
 * arguments, request headers other than the credential, or {@code _meta}.
 *
 * @param environmentId             the host environment the caller belongs to
 * @param callerKind                {@code thread} or {@code outside_agent}
 * @param threadId                  the calling thread; empty for outside agents
 * @param providerSessionId         the agent host's provider session; empty for outside agents
 * @param providerInstanceId        the provider instance the session runs on; empty for outside agents
 * @param logicalAgentId            the stable agent id: wiki subtree, Project Service agent, decision log
 * @param agentName                 display only; never used for authorization, routing or idempotency
 * @param t3ProjectId               the T3 project of the calling thread; empty for outside agents
 * @param projectServiceProjectId   the bound Project Service project; empty when Project is not enabled
 * @param limits                    thread: its current modes; outside agent: its approved ceiling
 * @param modeLimit                 outside agent's {@code T3-Mode-Limit} header, if sent (narrows only)
 * @param readOnly                  an outside agent approved as {@code read-only}
 * @param live                      a thread caller owns a live run (always false for outside agents)
 * @param capabilities              scopes derived from the agent's settings on this call (DOMAIN.md §4)
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
        Modes limits,
        Optional<Modes> modeLimit,
        boolean readOnly,
        boolean live,
        List<String> capabilities) {

    public TrustedContext {
        Objects.requireNonNull(environmentId, "environmentId");
        Objects.requireNonNull(callerKind, "callerKind");
        Objects.requireNonNull(logicalAgentId, "logicalAgentId");
        Objects.requireNonNull(limits, "limits");
        capabilities = List.copyOf(capabilities);
    }

    /** The caller's wiki subtree, {@code agents/<logicalAgentId>} (DOMAIN.md §7). */
    public String wikiRoot() {
        return "agents/" + logicalAgentId;
    }

    /** Caller kinds of DOMAIN.md §1, spelled as in the decision input. */
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

    /**
     * A pair of modes on the two axes of DOMAIN.md §2, spelled as in the decision input
     * ({@code approval-required|auto-accept-edits|auto|full-access}, {@code plan|default}).
     */
    public record Modes(String runtimeMode, String interactionMode) {
        public Modes {
            Objects.requireNonNull(runtimeMode, "runtimeMode");
            Objects.requireNonNull(interactionMode, "interactionMode");
        }
    }
}
