package dev.gatehouse.gateway.auth;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728 §3) for the MCP endpoint: which authorization server issues
 * tokens for it (the configured issuer, whose RFC 8414 metadata a client fetches next), which scope to ask for, and
 * how to present tokens. Public: it is what a 401's {@code resource_metadata} points to. Served at the root and at
 * the resource-path-suffixed location ({@code /.well-known/oauth-protected-resource/mcp}), which MCP clients try
 * first. This gateway is a resource server only: it serves no authorization-server metadata of its own.
 */
@Controller("/.well-known/oauth-protected-resource")
public class ProtectedResourceMetadataController {

    private final GatewayProperties gateway;
    private final OAuthProperties oauth;

    public ProtectedResourceMetadataController(GatewayProperties gateway, OAuthProperties oauth) {
        this.gateway = gateway;
        this.oauth = oauth;
    }

    /**
     * {@code {resource, authorization_servers?, scopes_supported?, bearer_methods_supported, resource_name}};
     * the optional members only when an issuer or a scope is configured.
     */
    @Get(uris = {"/", "/mcp"}, produces = MediaType.APPLICATION_JSON)
    public Map<String, Object> metadata() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("resource", oauth.getAudience().orElse(gateway.resource()));
        oauth.getIssuer().ifPresent(issuer -> body.put("authorization_servers", List.of(issuer)));
        oauth.getScope().ifPresent(scope -> body.put("scopes_supported", List.of(scope)));
        body.put("bearer_methods_supported", List.of("header"));
        body.put("resource_name", "Gatehouse MCP gateway");
        return body;
    }
}
