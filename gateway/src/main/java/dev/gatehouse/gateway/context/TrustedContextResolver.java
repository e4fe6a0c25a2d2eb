package dev.gatehouse.gateway.context;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.AuthenticatedCaller;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.auth.ModeCeilings;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.context.TrustedContext.Modes;
import dev.gatehouse.gateway.policy.api.DecisionInput.ThreadShell;
import jakarta.inject.Singleton;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The PIP: builds the trusted context of one call from the authenticated principal, the agent's live settings and
 * the host's thread shells, read fresh on every call (DOMAIN.md §1, §4). Nothing here reads tool arguments,
 * {@code _meta} or request headers other than the credential and {@code T3-Mode-Limit}.
 *
 * <p>Fails closed: when the host cannot report the calling thread, the caller is not live and its limits are the
 * narrowest modes; a target thread whose lookup fails is {@code found: false}.
 */
@Singleton
public class TrustedContextResolver {

    /** The narrowest modes of DOMAIN.md §2, used when a thread's modes cannot be read. */
    public static final Modes NARROWEST = new Modes("approval-required", "plan");

    private static final String DEFAULT_INTERACTION = "default";

    private final HostFacade host;
    private final AgentSettingsStore settings;
    private final GatewayProperties gateway;

    public TrustedContextResolver(HostFacade host, AgentSettingsStore settings, GatewayProperties gateway) {
        this.host = host;
        this.settings = settings;
        this.gateway = gateway;
    }

    /** The caller's trusted context for this call. */
    public TrustedContext resolve(AuthenticatedCaller caller) {
        if (caller.identity() instanceof Authenticated.ThreadCaller thread) {
            return forThread(thread.session());
        }
        return forOutsideAgent((Authenticated.OutsideAgent) caller.identity(), caller.modeLimit());
    }

    /**
     * Shells of the named threads, each looked up once.
     *
     * @param threadIds ids taken from the arguments named by the row's threadFields
     * @return id → shell; {@link ThreadShell#notFound()} for a failed lookup
     */
    public Map<String, ThreadShell> threadShells(Collection<String> threadIds) {
        Map<String, ThreadShell> shells = new LinkedHashMap<>();
        for (String id : threadIds) {
            shells.computeIfAbsent(id, key -> lookup(key)
                    .map(s -> new ThreadShell(true, Optional.of(s.runtimeMode()), Optional.of(s.interactionMode())))
                    .orElse(ThreadShell.notFound()));
        }
        return shells;
    }

    private TrustedContext forThread(AgentSession session) {
        AgentSettings agent = settings.get(session.logicalAgentId());
        Optional<ThreadState> state = lookup(session.threadId());
        Modes limits = state.map(s -> new Modes(s.runtimeMode(), s.interactionMode())).orElse(NARROWEST);
        boolean live = state.filter(s -> !s.archived())
                .filter(s -> s.activeRunId().isPresent())
                .flatMap(ThreadState::providerInstanceId)
                .filter(session.providerInstanceId()::equals)
                .isPresent();
        return new TrustedContext(session.environmentId(), CallerKind.THREAD, Optional.of(session.threadId()),
                Optional.of(session.providerSessionId()), Optional.of(session.providerInstanceId()),
                session.logicalAgentId(), session.agentName().orElse(session.logicalAgentId()),
                Optional.of(session.t3ProjectId()), projectBinding(agent), limits, Optional.empty(), false, live,
                Capabilities.derive(agent, true));
    }

    private TrustedContext forOutsideAgent(Authenticated.OutsideAgent agent, Optional<Modes> modeLimit) {
        AgentSettings current = settings.get(agent.subject());
        boolean readOnly = ModeCeilings.READ_ONLY.equals(agent.ceiling());
        // A read-only agent's limits are the narrowest runtime mode; read_only itself is what the policy checks.
        Modes limits = new Modes(readOnly ? NARROWEST.runtimeMode() : agent.ceiling(), DEFAULT_INTERACTION);
        return new TrustedContext(gateway.getEnvironmentId(), CallerKind.OUTSIDE_AGENT, Optional.empty(),
                Optional.empty(), Optional.empty(), agent.subject(), agent.subject(), Optional.empty(),
                projectBinding(current), limits, modeLimit, readOnly, false,
                Capabilities.derive(current, !readOnly));
    }

    private static Optional<String> projectBinding(AgentSettings agent) {
        return agent.project().enabled() ? agent.project().projectServiceProjectId() : Optional.empty();
    }

    /** The thread's shell, or empty when the host reported any failure (fail closed). */
    private Optional<ThreadState> lookup(String threadId) {
        FacadeResult<ThreadState> result = host.threadState(threadId);
        return result instanceof FacadeResult.Ok<ThreadState> ok ? Optional.ofNullable(ok.value()) : Optional.empty();
    }
}
