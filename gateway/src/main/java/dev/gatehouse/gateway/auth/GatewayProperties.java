package dev.gatehouse.gateway.auth;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * Deployment facts the authentication layer publishes ({@code gatehouse.*}).
 */
@ConfigurationProperties(GatewayProperties.PREFIX)
public class GatewayProperties {

    public static final String PREFIX = "gatehouse";

    private String publicUrl = "http://127.0.0.1:8080";
    private String environmentId = "local";

    /** Base URL agents use to reach this gateway (no trailing slash); the MCP resource is {@code <publicUrl>/mcp}. */
    public String getPublicUrl() {
        return publicUrl;
    }

    public void setPublicUrl(String publicUrl) {
        this.publicUrl = publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
    }

    /** The host environment outside agents act in (thread callers carry their own in the session). */
    public String getEnvironmentId() {
        return environmentId;
    }

    public void setEnvironmentId(String environmentId) {
        this.environmentId = environmentId;
    }

    /** The protected resource identifier: the MCP endpoint URL (RFC 9728 {@code resource}). */
    public String resource() {
        return publicUrl + "/mcp";
    }

    /** Where the RFC 9728 protected-resource metadata is served. */
    public String resourceMetadataUrl() {
        return publicUrl + "/.well-known/oauth-protected-resource";
    }
}
