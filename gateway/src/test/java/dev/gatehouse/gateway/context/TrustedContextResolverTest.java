package dev.gatehouse.gateway.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.context.TrustedContext.Modes;
import dev.gatehouse.gateway.policy.api.DecisionInput.ThreadShell;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.ThreadStateHost;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** DOMAIN.md §1 and §4: the trusted context is read fresh on every call and fails closed. */
class TrustedContextResolverTest {

    private final ThreadStateHost host = new ThreadStateHost();
    private final AgentSettingsStore settings = new AgentSettingsStore();
    private final TrustedContextResolver pip = new TrustedContextResolver(host, settings, new GatewayProperties());

    @Test
    void aThreadCallerGetsItsThreadsCurrentModesAndLiveRun() {
        TrustedContext a1 = pip.resolve(Callers.a1());
        assertEquals(CallerKind.THREAD, a1.callerKind());
        assertEquals(new Modes("full-access", "default"), a1.limits());
        assertTrue(a1.live());
        assertEquals(List.of("orchestration"), a1.capabilities());
        assertEquals(Optional.of("t1"), a1.threadId());

        host.threads.put("t1", new dev.gatehouse.facade.host.ThreadState("t1", false, "auto", "plan",
                Optional.of("run-1"), Optional.of("p-1"), Optional.empty()));
        assertEquals(new Modes("auto", "plan"), pip.resolve(Callers.a1()).limits());
    }

    @Test
    void notLiveWhenRunEndedArchivedOtherInstanceOrLookupFails() {
        assertFalse(pip.resolve(Callers.a1Ended()).live());
        host.threads.put("t1", new dev.gatehouse.facade.host.ThreadState("t1", true, "full-access", "default",
                Optional.of("run-1"), Optional.of("p-1"), Optional.empty()));
        assertFalse(pip.resolve(Callers.a1()).live());
        host.threads.put("t1", new dev.gatehouse.facade.host.ThreadState("t1", false, "full-access", "default",
                Optional.of("run-1"), Optional.of("p-9"), Optional.empty()));
        assertFalse(pip.resolve(Callers.a1()).live());
        host.failing.add("t1");
        TrustedContext failed = pip.resolve(Callers.a1());
        assertFalse(failed.live());
        assertEquals(TrustedContextResolver.NARROWEST, failed.limits());
    }

    @Test
    void capabilitiesFollowTheSettingsOnEveryCall() {
        settings.put("a1", new AgentSettings(true, new AgentSettings.Project(true, Optional.of("pp-1")),
                new AgentSettings.Wiki(true, false)));
        TrustedContext on = pip.resolve(Callers.a1());
        assertEquals(List.of("preview", "project.work.read", "project.work.write", "wiki.read", "orchestration"),
                on.capabilities());
        assertEquals(Optional.of("pp-1"), on.projectServiceProjectId());
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(true, Optional.of("pp-1")),
                new AgentSettings.Wiki(true, false)));
        assertEquals(List.of("project.work.read", "project.work.write", "wiki.read", "orchestration"),
                pip.resolve(Callers.a1()).capabilities());
    }

    @Test
    void outsideAgentsGetTheirCeilingAndHeaderButNoThread() {
        TrustedContext readOnly = pip.resolve(Callers.outside("o1", "read-only", Optional.empty()));
        assertTrue(readOnly.readOnly());
        assertEquals(new Modes("approval-required", "default"), readOnly.limits());
        assertEquals(List.of(), readOnly.capabilities());
        assertFalse(readOnly.live());
        assertEquals(Optional.empty(), readOnly.threadId());

        TrustedContext auto = pip.resolve(Callers.outside("o2", "auto", Optional.of(new Modes("auto", "plan"))));
        assertFalse(auto.readOnly());
        assertEquals(new Modes("auto", "default"), auto.limits());
        assertEquals(Optional.of(new Modes("auto", "plan")), auto.modeLimit());
        assertEquals(List.of("orchestration"), auto.capabilities());
        assertEquals("agents/o2", auto.wikiRoot());
    }

    @Test
    void targetShellsFailClosed() {
        host.failing.add("t2");
        Map<String, ThreadShell> shells = pip.threadShells(List.of("t1", "t2", "nope"));
        assertEquals(new ThreadShell(true, Optional.of("full-access"), Optional.of("default")), shells.get("t1"));
        assertEquals(ThreadShell.notFound(), shells.get("t2"));
        assertEquals(ThreadShell.notFound(), shells.get("nope"));
    }
}
