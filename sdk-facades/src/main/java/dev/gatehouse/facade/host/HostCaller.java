package dev.gatehouse.facade.host;

import java.util.Objects;
import java.util.Optional;

/**
 * Who acts on the host, taken from the trusted context (never from tool arguments). Sent as the
 * {@code Gatehouse-Agent-Id} and {@code Gatehouse-Thread-Id} headers of host mutations.
 *
 * @param agentId  the logical agent id
 * @param threadId the calling thread; empty for outside agents
 */
public record HostCaller(String agentId, Optional<String> threadId) {
    public HostCaller {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(threadId, "threadId");
    }
}
