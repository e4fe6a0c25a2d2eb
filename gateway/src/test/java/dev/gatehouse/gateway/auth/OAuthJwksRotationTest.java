package dev.gatehouse.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The JWKS path of {@link OAuthTokenVerifier} against an issuer's key set served on loopback: RS256 tokens are
 * verified with the published keys, a key rotated in under a new {@code kid} is fetched on first sight, a
 * {@code kid} the issuer does not publish is refused, and the scope, audience and ceiling rules hold as with any key.
 */
class OAuthJwksRotationTest {

    private static final String ISSUER = "http://127.0.0.1/issuer";
    private static final String AUDIENCE = "http://127.0.0.1:8080/mcp";

    private final AtomicReference<JWKSet> published = new AtomicReference<>();
    private final AtomicInteger fetches = new AtomicInteger();
    private HttpServer server;
    private RSAKey first;

    @BeforeEach
    void serveKeys() throws Exception {
        first = new RSAKeyGenerator(2048).keyID("k1").generate();
        published.set(new JWKSet(first.toPublicJWK()));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/jwks", exchange -> {
            fetches.incrementAndGet();
            byte[] body = published.get().toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private OAuthTokenVerifier verifier(Optional<String> scope) {
        OAuthProperties oauth = new OAuthProperties();
        oauth.setIssuer(Optional.of(ISSUER));
        oauth.setJwksUrl(Optional.of("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks"));
        // Long enough that no test sees a new interval begin, so what is fetched depends on the calls and not on time
        // (and below the key-set cache's 5 minutes, which the library requires).
        oauth.setJwksRefetchInterval(Duration.ofMinutes(4));
        oauth.setScope(scope);
        return new OAuthTokenVerifier(oauth, new GatewayProperties());
    }

    private static String token(RSAKey key, Consumer<JWTClaimsSet.Builder> claims) throws JOSEException {
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("o1")
                .expirationTime(Date.from(Instant.now().plusSeconds(300))).claim("t3_mode_ceiling", "read-only")
                .claim("scope", "openid mcp");
        claims.accept(builder);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                .type(JOSEObjectType.JWT).build(), builder.build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    void aRotatedInKeyIsFetchedOnFirstSightAndAnUnpublishedKidIsRefused() throws Exception {
        OAuthTokenVerifier verifier = verifier(Optional.empty());
        assertEquals("o1", verifier.verify(token(first, c -> { })).agent().orElseThrow().subject());
        assertEquals(1, fetches.get());
        assertTrue(verifier.verify(token(first, c -> { })).agent().isPresent());
        assertEquals(1, fetches.get(), "a known kid is served from the cache");

        RSAKey second = new RSAKeyGenerator(2048).keyID("k2").generate();
        published.set(new JWKSet(List.of(first.toPublicJWK(), second.toPublicJWK())));
        assertEquals("read-only", verifier.verify(token(second, c -> { })).agent().orElseThrow().ceiling());
        assertEquals(2, fetches.get(), "the new kid made the verifier fetch the key set again");

        RSAKey unpublished = new RSAKeyGenerator(2048).keyID("k3").generate();
        assertTrue(verifier.verify(token(unpublished, c -> { })).agent().isEmpty(), "a kid the issuer does not publish");
        assertTrue(verifier.verify(token(unpublished, c -> { })).agent().isEmpty());
        assertEquals(2, fetches.get(), "unknown kids within the refetch interval fetch nothing more");
        RSAKey impostor = new RSAKeyGenerator(2048).keyID("k1").generate();
        assertTrue(verifier.verify(token(impostor, c -> { })).agent().isEmpty(), "a published kid with another key");
        assertTrue(verifier.verify(token(second, c -> c.audience("http://127.0.0.1:8080/other"))).agent().isEmpty());
        assertTrue(verifier.verify(token(second, c -> c.claim("t3_mode_ceiling", null))).agent().isEmpty());
    }

    @Test
    void aConfiguredScopeMustBeHeld() throws Exception {
        OAuthTokenVerifier verifier = verifier(Optional.of("mcp"));
        assertTrue(verifier.verify(token(first, c -> { })).agent().isPresent());
        assertTrue(verifier.verify(token(first, c -> c.claim("scope", null).claim("scp", List.of("mcp")))).agent()
                .isPresent());
        // A valid token without the scope is a 403 step-up (insufficient_scope), not an invalid token.
        for (var lacking : List.<Consumer<JWTClaimsSet.Builder>>of(c -> c.claim("scope", "openid"),
                c -> c.claim("scope", "mcp:admin"), c -> c.claim("scope", "MCP"), c -> c.claim("scope", " mcpx "),
                c -> c.claim("scope", null), c -> c.claim("scope", null).claim("scp", List.of("openid")),
                c -> c.claim("scope", List.of("mcp:read")))) {
            assertEquals(new OAuthTokenVerifier.Verification.Refused(AuthFailure.INSUFFICIENT_SCOPE),
                    verifier.verify(token(first, lacking)));
        }
        // Any other failure stays invalid_token, even when the scope is missing too.
        assertEquals(new OAuthTokenVerifier.Verification.Refused(AuthFailure.INVALID_TOKEN),
                verifier.verify(token(first, c -> c.claim("scope", "openid").audience("http://127.0.0.1:8080/other"))));
        assertEquals(new OAuthTokenVerifier.Verification.Refused(AuthFailure.INVALID_TOKEN),
                verifier.verify(token(first, c -> c.claim("scope", null).claim("t3_mode_ceiling", "read only"))));
    }

    @Test
    void aTokenWithoutTheScopeIsA403StepUpChallengeNamingTheScope() throws Exception {
        OAuthTokenVerifier verifier = verifier(Optional.of("mcp"));
        Authenticator authenticator = new Authenticator(new dev.gatehouse.gateway.support.InMemorySessionStore(),
                verifier);
        Authenticator.Result result = authenticator.authenticate(
                Optional.of("Bearer " + token(first, c -> c.claim("scope", "openid"))));
        AuthFailure failure = ((Authenticator.Result.Rejected) result).failure();
        assertEquals(AuthFailure.INSUFFICIENT_SCOPE, failure);
        assertEquals(403, failure.status());
        OAuthProperties oauth = new OAuthProperties();
        oauth.setScope(Optional.of("mcp"));
        assertEquals("Bearer resource_metadata=\"http://127.0.0.1:8080/.well-known/oauth-protected-resource\", "
                + "scope=\"mcp\", error=\"insufficient_scope\"",
                new AuthChallenge(new GatewayProperties(), oauth).header(failure));
        assertEquals(401, ((Authenticator.Result.Rejected) authenticator.authenticate(
                Optional.of("Bearer " + token(first, c -> c.issuer("https://other.test"))))).failure().status());
    }

    @Test
    void keysNeedAnIssuerAndTheDiscoveryDocumentsNameItAndTheScope() {
        OAuthProperties oauth = new OAuthProperties();
        oauth.setJwksUrl(Optional.of("http://127.0.0.1:1/jwks"));
        assertThrows(IllegalStateException.class, () -> new OAuthTokenVerifier(oauth, new GatewayProperties()));

        GatewayProperties gateway = new GatewayProperties();
        OAuthProperties none = new OAuthProperties();
        Map<String, Object> bare = new ProtectedResourceMetadataController(gateway, none).metadata();
        assertEquals("http://127.0.0.1:8080/mcp", bare.get("resource"));
        assertTrue(!bare.containsKey("authorization_servers") && !bare.containsKey("scopes_supported"), bare.toString());

        oauth.setIssuer(Optional.of(ISSUER));
        oauth.setScope(Optional.of("mcp"));
        Map<String, Object> metadata = new ProtectedResourceMetadataController(gateway, oauth).metadata();
        assertEquals(List.of(ISSUER), metadata.get("authorization_servers"));
        assertEquals(List.of("mcp"), metadata.get("scopes_supported"));
        assertEquals("Bearer resource_metadata=\"http://127.0.0.1:8080/.well-known/oauth-protected-resource\", "
                + "scope=\"mcp\", error=\"invalid_token\"",
                new AuthChallenge(gateway, oauth).header(AuthFailure.INVALID_TOKEN));
        assertThrows(IllegalArgumentException.class, () -> oauth.setScope(Optional.of("mcp admin")));
    }
}
