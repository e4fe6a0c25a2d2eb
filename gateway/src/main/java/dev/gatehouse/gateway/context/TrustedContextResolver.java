package dev.gatehouse.gateway.context;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.ThreadShell;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The PIP: gathers on every call what is known about the caller (the session or token, the agent's settings, read
 * through the store's bounded caches, and the host's thread shells, from the watch within its staleness bound or
 * read on the call, {@link ThreadShells}) and reports it as facts (docs/domain.md §1, §4). It decides nothing:
 * whether a thread owns a live run, whether a caller may write, its limits and its scopes are derived by the policy.
 * Nothing here reads tool arguments, {@code _meta} or request headers other than the credential and
 * {@code T3-Mode-Limit}.
 *
 * <p>A lookup that fails is reported as it failed: {@link ThreadShell.Lookup#NOT_FOUND} when the host says the thread
 * does not exist, {@link ThreadShell.Lookup#UNAVAILABLE} for any other failure (the policy answers those with
 * {@code unavailable}).
 */
@Singleton
public class TrustedContextResolver {

    private final ThreadShells shells;
    private final AgentDirectory settings;
    private final GatewayProperties gateway;

    @Inject
    public TrustedContextResolver(ThreadShells shells, AgentDirectory settings, GatewayProperties gateway) {
        this.shells = shells;
        this.settings = settings;
        this.gateway = gateway;
    }

    /** A PIP without a watch: every shell is read from {@code host} on the call. */
    public TrustedContextResolver(HostFacade host, AgentDirectory settings, GatewayProperties gateway) {
        this(ThreadShells.fresh(host), settings, gateway);
    }

    /** The caller's trusted context and facts, for a request that names no thread (tools/list). */
    public ResolvedCaller resolve(AuthenticatedCaller caller) {
        return resolve(caller, List.of());
    }

    /**
     * Everything the PIP knows for one call, in one entry: the caller's trusted context and facts, and the shell of
     * every target thread. Each thread is looked up once per call, so the caller's own thread named as a target is
     * the same shell in both places.
     *
     * @param targetThreadIds the thread ids the call names ({@code AccessRow.threadIds}: the string values of the
     *                        row's threadFields)
     * @throws dev.gatehouse.gateway.store.StoreUnavailableException when the caller's settings or registration could
     *                                                               not be read within the store's deadline
     */
    public ResolvedCaller resolve(AuthenticatedCaller caller, Collection<String> targetThreadIds) {
        Map<String, ThreadShell> read = new HashMap<>();
        Function<String, ThreadShell> shell = id -> read.computeIfAbsent(id, shells::shell);
        Caller resolved = caller.identity() instanceof Authenticated.ThreadCaller thread
                ? forThread(thread.session(), caller, shell)
                : forOutsideAgent((Authenticated.OutsideAgent) caller.identity(), caller);
        Map<String, ThreadShell> targets = new LinkedHashMap<>();
        for (String id : targetThreadIds) {
            targets.computeIfAbsent(id, shell);
        }
        return new ResolvedCaller(resolved.context(), resolved.facts(), targets);
    }

    /** The caller's part of the answer, read before any target is looked up. */
    private record Caller(TrustedContext context, CallerFacts facts) {
    }

    private Caller forThread(AgentSession session, AuthenticatedCaller caller, Function<String, ThreadShell> shell) {
        AgentSettings agent = settings.settings(AgentKey.thread(session.logicalAgentId()));
        TrustedContext context = new TrustedContext(session.environmentId(), CallerKind.THREAD,
                Optional.of(session.threadId()), Optional.of(session.providerSessionId()),
                Optional.of(session.providerInstanceId()), session.logicalAgentId(),
                session.agentName().orElse(session.logicalAgentId()), Optional.of(session.t3ProjectId()),
                agent.project().projectServiceProjectId(), Optional.of(session.provider()));
        CallerFacts facts = new CallerFacts(CallerKind.THREAD.wire(), session.logicalAgentId(),
                Optional.of(session.threadId()), Optional.of(session.providerInstanceId()),
                Optional.of(shell.apply(session.threadId())), Optional.empty(), agent.facts(), caller.modeLimit());
        return new Caller(context, facts);
    }

    /**
     * An outside agent acts as its registered logical agent, or, unregistered, as the id derived from its token's
     * issuer and subject (docs/domain.md §1); the subject alone never names an agent. Its settings are those of
     * that id in the outside-agent namespace. A registration that shares a thread agent's subtree is sent as the
     * fact {@code sharesThreadAgent}; the policy chooses the subtree from it (obligation {@code wikiRoot}).
     */
    private Caller forOutsideAgent(Authenticated.OutsideAgent agent, AuthenticatedCaller caller) {
        Optional<OutsideAgentRegistration> registration = settings.registration(agent.issuer(), agent.subject());
        String agentId = registration.map(OutsideAgentRegistration::logicalAgentId)
                .orElseGet(() -> OutsideAgentIds.derive(agent.issuer(), agent.subject()));
        Optional<String> shared = registration.flatMap(OutsideAgentRegistration::sharesThreadAgent);
        AgentSettings current = settings.settings(AgentKey.outside(agentId));
        TrustedContext context = new TrustedContext(gateway.getEnvironmentId(), CallerKind.OUTSIDE_AGENT,
                Optional.empty(), Optional.empty(), Optional.empty(), agentId, agentId, Optional.empty(),
                current.project().projectServiceProjectId(), Optional.empty());
        CallerFacts facts = new CallerFacts(CallerKind.OUTSIDE_AGENT.wire(), agentId, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of(agent.ceiling()), current.facts(), caller.modeLimit(),
                shared);
        return new Caller(context, facts);
    }
}
