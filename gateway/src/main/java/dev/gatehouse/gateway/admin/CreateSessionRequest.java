package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * {@code POST /admin/sessions}: the host attaches an agent session to a thread (docs/domain.md §1). Every field but
 * {@code agentName} is required and non-blank.
 */
@Serdeable
public record CreateSessionRequest(@Nullable String environmentId, @Nullable String threadId,
        @Nullable String providerSessionId, @Nullable String providerInstanceId, @Nullable String logicalAgentId,
        @Nullable String t3ProjectId, @Nullable String agentName) {
}
