package dev.gatehouse.gateway.context;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.Modes;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.ThreadShell.Lookup;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.ThreadStateHost;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/domain.md §1 and §4: the PIP reads the caller's facts fresh on every call and reports them as it found them;
 * it derives no verdict (live, read-only, limits and scopes are the policy's).
 */
class TrustedContextResolverTest {

    private final ThreadStateHost host = new ThreadStateHost();
    private final dev.gatehouse.gateway.support.InMemoryAgentDirectory settings =
            new dev.gatehouse.gateway.support.InMemoryAgentDirectory();
    private final TrustedContextResolver pip = new TrustedContextResolver(host, settings, new GatewayProperties());

    @Test
    void aThreadCallersFactsAreItsSessionAndItsThreadsShellAsReadNow() {
        ResolvedCaller a1 = pip.resolve(Callers.a1());
        assertEquals(CallerKind.THREAD, a1.context().callerKind());
        CallerFacts facts = a1.facts();
        assertEquals("thread", facts.kind());
        assertEquals(Optional.of("t1"), facts.threadId());
        assertEquals(Optional.of("p-1"), facts.sessionProviderInstanceId());
        assertEquals(Optional.of(ThreadShell.found(false, true, Optional.of("p-1"), "full-access", "default")),
                facts.thread());
        assertEquals(Optional.empty(), facts.ceiling());

        host.threads.put("t1", new ThreadState("t1", true, "auto", "plan", Optional.empty(), Optional.of("p-9"),
                Optional.empty()));
        assertEquals(Optional.of(ThreadShell.found(true, false, Optional.of("p-9"), "auto", "plan")),
                pip.resolve(Callers.a1()).facts().thread());
    }

    @Test
    void aFailedLookupIsReportedAsItFailed() {
        host.failing.add("t1");
        assertEquals(Optional.of(ThreadShell.of(Lookup.UNAVAILABLE)), pip.resolve(Callers.a1()).facts().thread());
        host.failing.clear();
        host.threads.remove("t1");
        assertEquals(Optional.of(ThreadShell.of(Lookup.NOT_FOUND)), pip.resolve(Callers.a1()).facts().thread());
    }

    @Test
    void settingsAreFactsOnEveryCall() {
        settings.put("a1", new AgentSettings(true, new AgentSettings.Project(true, Optional.of("pp-1")),
                new AgentSettings.Wiki(true, false)));
        ResolvedCaller on = pip.resolve(Callers.a1());
        assertEquals(new CallerFacts.Settings(true, true, true, true, false), on.facts().settings());
        assertEquals(Optional.of("pp-1"), on.context().projectServiceProjectId());
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(false, Optional.of("pp-1")),
                new AgentSettings.Wiki(false, true)));
        ResolvedCaller off = pip.resolve(Callers.a1());
        assertEquals(new CallerFacts.Settings(false, false, true, false, true), off.facts().settings(),
                "a stored binding is a fact whether or not Project is on: the policy decides what it is worth");
        assertEquals(Optional.of("pp-1"), off.context().projectServiceProjectId());
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(true, Optional.empty()),
                new AgentSettings.Wiki(false, false)));
        ResolvedCaller unbound = pip.resolve(Callers.a1());
        assertEquals(new CallerFacts.Settings(false, true, false, false, false), unbound.facts().settings());
        assertEquals(Optional.empty(), unbound.context().projectServiceProjectId());
    }

    @Test
    void outsideAgentsReportTheirCeilingAndNoThread() {
        CallerFacts readOnly = pip.resolve(Callers.outside("o1", "read-only", Optional.empty())).facts();
        assertEquals("outside_agent", readOnly.kind());
        assertEquals(Optional.of("read-only"), readOnly.ceiling());
        assertEquals(Optional.empty(), readOnly.thread());
        assertEquals(Optional.empty(), readOnly.threadId());
        assertEquals(Optional.empty(), readOnly.sessionProviderInstanceId());
        assertEquals(new CallerFacts.Settings(false, false, false, false, false), readOnly.settings());
    }

    /** The ceiling claim goes to the policy as the token carries it, known to the policy or not. */
    @Test
    void theCeilingIsSentExactlyAsReceived() {
        for (String ceiling : List.of("full-access", "FULL-ACCESS", "superuser", "auto")) {
            assertEquals(Optional.of(ceiling),
                    pip.resolve(Callers.outside("o1", ceiling, Optional.empty())).facts().ceiling());
        }
    }

    @Test
    void theModeLimitHeaderIsAFactForEveryCaller() {
        Modes limit = new Modes("auto", "plan");
        assertEquals(Optional.of(limit),
                pip.resolve(Callers.outside("o2", "auto", Optional.of(limit))).facts().modeLimit());
        AuthenticatedCaller thread = new AuthenticatedCaller(Callers.a1().identity(), Optional.of(limit));
        assertEquals(Optional.of(limit), pip.resolve(thread).facts().modeLimit());
        Modes unknown = new Modes("turbo", "Plan");
        assertEquals(Optional.of(unknown), pip.resolve(new AuthenticatedCaller(Callers.a1().identity(),
                Optional.of(unknown))).facts().modeLimit(), "names the policy does not know are facts too");
    }

    @Test
    void oneEntryReadsEachThreadOnceForTheCallerAndTheTargets() {
        HostWatchProperties off = new HostWatchProperties();
        off.setMaxStaleness(Duration.ZERO);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        TrustedContextResolver counted = new TrustedContextResolver(
                new ThreadShells(host, new ShellWatch(null, off, meters), meters), settings, new GatewayProperties());

        ResolvedCaller resolved = counted.resolve(Callers.a1(), List.of("t1", "t2", "t1"));

        assertEquals(resolved.facts().thread().orElseThrow(), resolved.targets().get("t1"),
                "the caller's own thread named as a target is the same shell");
        assertEquals(List.of("t1", "t2"), List.copyOf(resolved.targets().keySet()));
        assertEquals(2.0, meters.get(ThreadShells.ANSWERS).tag("source", "host").counter().count(),
                "t1 (caller and target) and t2, each read once");
        assertEquals(Map.of(), pip.resolve(Callers.a1()).targets(), "a request that names no thread has no targets");
    }

    @Test
    void targetShellsSayHowEachLookupEnded() {
        host.failing.add("t2");
        Map<String, ThreadShell> shells = pip.resolve(Callers.a1(), List.of("t1", "t2", "nope", "t1")).targets();
        assertEquals(List.of("t1", "t2", "nope"), List.copyOf(shells.keySet()));
        assertEquals(ThreadShell.found(false, true, Optional.of("p-1"), "full-access", "default"), shells.get("t1"));
        assertEquals(ThreadShell.of(Lookup.UNAVAILABLE), shells.get("t2"));
        assertEquals(ThreadShell.of(Lookup.NOT_FOUND), shells.get("nope"));
    }
}
