package dev.gatehouse.facts;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the PDP learns about the caller of one call (schemas/decision-input.json {@code caller}): facts the PIP
 * gathered, never verdicts. The policy derives from them whether a thread owns a live run, whether the caller may
 * change anything, its mode limits, the scopes it holds and its wiki subtree (docs/domain.md §1, §2, §4, §7).
 * Credentials, provider session ids, the bound project's id and names are not facts the policy reads and are not
 * here (only whether a project is bound is).
 *
 * @param kind                      {@code thread} or {@code outside_agent}
 * @param logicalAgentId            the stable agent id
 * @param threadId                  the calling thread (thread callers)
 * @param sessionProviderInstanceId the provider instance the session was attached on (thread callers)
 * @param thread                    the calling thread's shell as the host reported it on this call (thread callers)
 * @param ceiling                   the approved ceiling claim exactly as the token carries it (outside agents)
 * @param settings                  the agent's settings on this call
 * @param modeLimit                 the request's {@code T3-Mode-Limit} names exactly as received, whoever sent them
 * @param sharesThreadAgent         outside agents: the thread agent whose wiki subtree the agent's registration
 *                                  explicitly shares; the policy then chooses that subtree (obligation
 *                                  {@code wikiRoot})
 */
public record CallerFacts(String kind, String logicalAgentId, Optional<String> threadId,
        Optional<String> sessionProviderInstanceId, Optional<ThreadShell> thread, Optional<String> ceiling,
        Settings settings, Optional<Modes> modeLimit, Optional<String> sharesThreadAgent) {

    /** Facts of a caller that shares no other agent's subtree. */
    public CallerFacts(String kind, String logicalAgentId, Optional<String> threadId,
            Optional<String> sessionProviderInstanceId, Optional<ThreadShell> thread, Optional<String> ceiling,
            Settings settings, Optional<Modes> modeLimit) {
        this(kind, logicalAgentId, threadId, sessionProviderInstanceId, thread, ceiling, settings, modeLimit,
                Optional.empty());
    }

    public CallerFacts {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(logicalAgentId, "logicalAgentId");
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(sessionProviderInstanceId, "sessionProviderInstanceId");
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(ceiling, "ceiling");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(modeLimit, "modeLimit");
        Objects.requireNonNull(sharesThreadAgent, "sharesThreadAgent");
    }

    /**
     * The ids a wiki subtree can be built from (docs/domain.md §7): the logical agent id, then the thread agent a
     * registration shares, if any. Which one names the caller's subtree is the policy's choice.
     */
    public List<String> subtreeIds() {
        return sharesThreadAgent.map(shared -> List.of(logicalAgentId, shared)).orElse(List.of(logicalAgentId));
    }

    /**
     * The agent's settings as stored (docs/domain.md §4); which scope each grants, and which scopes need a bound
     * project, is policy data.
     *
     * @param browserAccess  browser access is on
     * @param projectEnabled the Project Service integration is on
     * @param projectBound   the settings bind a Project Service project ({@code project_not_bound} without one)
     * @param wikiRead       wiki reading is on
     * @param wikiWrite      wiki writing is on
     */
    public record Settings(boolean browserAccess, boolean projectEnabled, boolean projectBound, boolean wikiRead,
            boolean wikiWrite) {
    }
}
