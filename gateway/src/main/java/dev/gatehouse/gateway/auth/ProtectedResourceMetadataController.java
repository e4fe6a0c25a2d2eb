package dev.gatehouse.gateway.auth;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728 §3) for the MCP endpoint: which authorization server issues
 * tokens for it and how to present them. Public: it is what a 401's {@code resource_metadata} points to. Served at
 * the root and at the resource-path-suffixed location ({@code /.well-known/oauth-protected-resource/mcp}), which
 * MCP clients try first.
 */
@Controller("/.well-known/oauth-protected-resource")
public class ProtectedResourceMetadataController {

    private final GatewayProperties gateway;
    private final OAuthProperties oauth;

    public ProtectedResourceMetadataController(GatewayProperties gateway, OAuthProperties oauth) {
        this.gateway = gateway;
        this.oauth = oauth;
    }

    /** {@code {resource, authorization_servers, bearer_methods_supported, resource_name}}. */
    @Get(uris = {"/", "/mcp"}, produces = MediaType.APPLICATION_JSON)
    public Map<String, Object> metadata() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("resource", oauth.getAudience().orElse(gateway.resource()));
        body.put("authorization_servers", List.of(oauth.getIssuer()));
        body.put("bearer_methods_supported", List.of("header"));
        body.put("resource_name", "Gatehouse MCP gateway");
        return body;
    }
}
