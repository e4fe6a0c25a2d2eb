package dev.gatehouse.gateway.tools;

import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import java.util.Optional;

/** Trusted contexts for handler tests. */
public final class Contexts {

    private Contexts() {
    }

    /** Thread caller {@code agent} on {@code thread}, bound to Project Service project {@code ps-demo}. */
    public static TrustedContext thread(String agent, String thread) {
        return new TrustedContext("env-1", CallerKind.THREAD, Optional.of(thread), Optional.of("ps-1"),
                Optional.of("pi-1"), agent, agent + " display", Optional.of("demo"), Optional.of("ps-demo"),
                Optional.empty());
    }

    /** Outside agent {@code agent}: no thread, no Project Service binding. */
    public static TrustedContext outside(String agent) {
        return new TrustedContext("env-1", CallerKind.OUTSIDE_AGENT, Optional.empty(), Optional.empty(),
                Optional.empty(), agent, agent, Optional.empty(), Optional.empty(), Optional.empty());
    }
}
