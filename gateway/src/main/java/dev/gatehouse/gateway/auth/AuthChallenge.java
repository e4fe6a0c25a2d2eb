package dev.gatehouse.gateway.auth;

import jakarta.inject.Singleton;

/**
 * The {@code WWW-Authenticate} value of every 401 from {@code /mcp}: a Bearer challenge pointing at the RFC 9728
 * protected-resource metadata, so an OAuth client can discover the authorization server (MCP authorization spec).
 */
@Singleton
public class AuthChallenge {

    private final GatewayProperties gateway;

    public AuthChallenge(GatewayProperties gateway) {
        this.gateway = gateway;
    }

    /** E.g. {@code Bearer resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource", error="invalid_token"}. */
    public String header(AuthFailure failure) {
        String challenge = "Bearer resource_metadata=\"" + gateway.resourceMetadataUrl() + "\"";
        return failure.errorCode().isEmpty() ? challenge : challenge + ", error=\"" + failure.errorCode() + "\"";
    }
}
