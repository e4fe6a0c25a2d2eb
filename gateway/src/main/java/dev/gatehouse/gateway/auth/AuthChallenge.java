package dev.gatehouse.gateway.auth;

import jakarta.inject.Singleton;

/**
 * The {@code WWW-Authenticate} value of every 401 from {@code /mcp}: a Bearer challenge pointing at the RFC 9728
 * protected-resource metadata, so an OAuth client can discover the authorization server (MCP authorization spec),
 * with the scope to request when one is configured (RFC 6750 §3).
 */
@Singleton
public class AuthChallenge {

    private final GatewayProperties gateway;
    private final OAuthProperties oauth;

    public AuthChallenge(GatewayProperties gateway, OAuthProperties oauth) {
        this.gateway = gateway;
        this.oauth = oauth;
    }

    /**
     * E.g. {@code Bearer resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource",
     * scope="mcp", error="invalid_token"}.
     */
    public String header(AuthFailure failure) {
        StringBuilder challenge = new StringBuilder("Bearer resource_metadata=\"")
                .append(gateway.resourceMetadataUrl()).append('"');
        oauth.getScope().ifPresent(scope -> challenge.append(", scope=\"").append(scope).append('"'));
        if (!failure.errorCode().isEmpty()) {
            challenge.append(", error=\"").append(failure.errorCode()).append('"');
        }
        return challenge.toString();
    }
}
