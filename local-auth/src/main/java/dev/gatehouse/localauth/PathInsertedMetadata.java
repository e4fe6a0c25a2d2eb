package dev.gatehouse.localauth;

import no.nav.security.mock.oauth2.http.OAuth2HttpRequest;
import no.nav.security.mock.oauth2.http.OAuth2HttpResponse;
import no.nav.security.mock.oauth2.http.OAuth2HttpResponseKt;
import no.nav.security.mock.oauth2.http.Route;
import okhttp3.HttpUrl;

/**
 * RFC 8414 §3.1 metadata at the location the RFC defines for an issuer with a path: {@code /.well-known/
 * oauth-authorization-server/gatehouse}, the first place MCP clients look. mock-oauth2-server serves the same
 * document only with the well-known suffix appended to the issuer ({@code /gatehouse/.well-known/...}); this route
 * answers the inserted form with it.
 */
final class PathInsertedMetadata implements Route {

    private static final String PATH = "/.well-known/oauth-authorization-server/" + LocalAuthServer.ISSUER_ID;

    @Override
    public boolean match(OAuth2HttpRequest request) {
        return "GET".equals(request.getMethod()) && PATH.equals(request.getUrl().encodedPath());
    }

    @Override
    public OAuth2HttpResponse invoke(OAuth2HttpRequest request) {
        HttpUrl appended = request.getOriginalUrl().newBuilder()
                .encodedPath("/" + LocalAuthServer.ISSUER_ID + "/.well-known/oauth-authorization-server").build();
        OAuth2HttpRequest issuerRequest = new OAuth2HttpRequest(request.getHeaders(), "GET", appended, null);
        return OAuth2HttpResponseKt.json(issuerRequest.toWellKnown());
    }
}
