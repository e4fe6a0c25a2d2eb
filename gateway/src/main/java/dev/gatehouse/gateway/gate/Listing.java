package dev.gatehouse.gateway.gate;

import java.util.List;
import java.util.Objects;

/**
 * What the PEP answers for one tools/list, as a value. A listing is either the tools the policy made visible (possibly
 * none, which is a decision) or nothing decided at all ({@link GateFault}), which the transport answers as
 * unavailable (HTTP 503 with {@code Retry-After}) so a client never caches an empty list that a fault produced, or
 * refused for the caller's fair share ({@link RateLimited}, HTTP 429).
 */
public sealed interface Listing {

    /**
     * The policy's answer: exactly these tools are visible, as the revision that decided serves them.
     *
     * @param tools    the visible tools, sorted by name; empty when the policy shows this caller nothing
     * @param revision the revision that decided
     * @param table    every tool that revision serves (the handshake SDK publishes them all and shows {@code tools})
     */
    record Listed(List<ServedTool> tools, String revision, ToolTable table) implements Listing {
        public Listed {
            tools = List.copyOf(tools);
            Objects.requireNonNull(revision, "revision");
            Objects.requireNonNull(table, "table");
        }
    }

    /**
     * The caller had every place of its fair share of the gateway (docs/domain.md §10): nothing was decided; the
     * transport answers HTTP 429 with {@code Retry-After}.
     *
     * @param retryAfterMs when a place is likely free, in ms (at least 1)
     */
    record RateLimited(long retryAfterMs) implements Listing {
    }

    /** Nothing was decided: the store did not answer, the PDP did not decide, or the decision could not be logged. */
    record Unavailable(GateFault fault) implements Listing {
        public Unavailable {
            Objects.requireNonNull(fault, "fault");
        }
    }
}
