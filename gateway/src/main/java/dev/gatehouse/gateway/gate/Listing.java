package dev.gatehouse.gateway.gate;

import java.util.List;
import java.util.Objects;

/**
 * What the PEP answers for one tools/list, as a value. A listing is either the tools the policy made visible (possibly
 * none, which is a decision) or nothing decided at all, which the transport answers as unavailable (HTTP 503 with
 * {@code Retry-After}) so a client never caches an empty list that a fault produced.
 */
public sealed interface Listing {

    /**
     * The policy's answer: exactly these tools are visible.
     *
     * @param tools the visible tools, sorted by name; empty when the policy shows this caller nothing
     */
    record Listed(List<RegisteredTool> tools) implements Listing {
        public Listed {
            tools = List.copyOf(tools);
        }
    }

    /**
     * Nothing was decided: the shared store did not answer, the PDP faulted or was busy past the deadline, or the
     * decision could not be logged. Retryable; never an empty list.
     *
     * @param why a fixed description for the log, never shown to the caller
     */
    record Unavailable(String why) implements Listing {
        public Unavailable {
            Objects.requireNonNull(why, "why");
        }
    }
}
