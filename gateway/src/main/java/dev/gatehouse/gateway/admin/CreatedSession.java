package dev.gatehouse.gateway.admin;

import io.micronaut.serde.annotation.Serdeable;

/**
 * The answer to {@code POST /admin/sessions}. The token is shown only here; the gateway keeps its SHA-256.
 *
 * @param sessionId revocation handle for {@code DELETE /admin/sessions/{sessionId}}
 * @param token     the bearer token the agent presents at {@code /mcp} (256 random bits, base64url)
 */
@Serdeable
public record CreatedSession(String sessionId, String token) {
}
