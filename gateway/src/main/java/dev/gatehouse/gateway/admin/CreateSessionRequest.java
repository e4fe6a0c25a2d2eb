package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * {@code POST /admin/sessions}: the host attaches an agent session to a thread (docs/domain.md §1). Every field but
 * {@code agentName} and {@code managed} is required and non-blank. {@code provider} is the provider kind, checked
 * against {@code gatehouse.attach.providers}; {@code managed} says who runs the provider's server: {@code local} (the
 * host, the default) or {@code external}.
 */
@Serdeable
public record CreateSessionRequest(@Nullable String environmentId, @Nullable String threadId,
        @Nullable String providerSessionId, @Nullable String providerInstanceId, @Nullable String logicalAgentId,
        @Nullable String t3ProjectId, @Nullable String agentName, @Nullable String provider,
        @Nullable String managed) {
}
