package dev.gatehouse.gateway.context;

import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import java.util.Objects;

/**
 * An agent in its caller kind's own namespace (docs/domain.md §1): settings are keyed by kind and id together, so a
 * thread agent {@code a1} and an outside agent whose id is spelled {@code a1} can never read each other's settings.
 *
 * @param kind the caller kind the id belongs to
 * @param id   the logical agent id within that kind
 */
public record AgentKey(CallerKind kind, String id) {

    public AgentKey {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
    }

    /** A thread agent, as the host names it when it attaches a session. */
    public static AgentKey thread(String id) {
        return new AgentKey(CallerKind.THREAD, id);
    }

    /** An outside agent, by its registered or derived id ({@link OutsideAgentIds}). */
    public static AgentKey outside(String id) {
        return new AgentKey(CallerKind.OUTSIDE_AGENT, id);
    }
}
