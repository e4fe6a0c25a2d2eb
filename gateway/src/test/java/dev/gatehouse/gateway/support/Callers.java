package dev.gatehouse.gateway.support;

import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.facts.Modes;
import java.util.Optional;

/** Authenticated callers matching {@link ThreadStateHost}'s seed. */
public final class Callers {

    private Callers() {
    }

    public static AgentSession session(String agent, String thread, String providerInstance) {
        return new AgentSession("s-" + thread, "local", thread, "ps-" + thread, providerInstance, agent, "proj-1",
                Optional.empty(), "codex");
    }

    /** a1 on t1: full-access/default, live. */
    public static AuthenticatedCaller a1() {
        return new AuthenticatedCaller(new Authenticated.ThreadCaller(session("a1", "t1", "p-1")), Optional.empty());
    }

    /** a2 on t2: approval-required/plan, live. */
    public static AuthenticatedCaller a2() {
        return new AuthenticatedCaller(new Authenticated.ThreadCaller(session("a2", "t2", "p-2")), Optional.empty());
    }

    /** a1 on t3, whose run ended. */
    public static AuthenticatedCaller a1Ended() {
        return new AuthenticatedCaller(new Authenticated.ThreadCaller(session("a1", "t3", "p-1")), Optional.empty());
    }

    /** An outside agent {@code subject} approved at {@code ceiling}, optionally narrowed by T3-Mode-Limit. */
    public static AuthenticatedCaller outside(String subject, String ceiling, Optional<Modes> modeLimit) {
        return new AuthenticatedCaller(new Authenticated.OutsideAgent("https://issuer.test", subject, ceiling),
                modeLimit);
    }
}
