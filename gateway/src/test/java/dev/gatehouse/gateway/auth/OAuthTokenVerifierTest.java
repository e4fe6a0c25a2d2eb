package dev.gatehouse.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Outside agents' JWTs: signature, issuer, audience, expiry, subject and the ceiling claim are all required. */
class OAuthTokenVerifierTest {

    static final String SECRET = "0123456789abcdef0123456789abcdef-test-only";
    static final String ISSUER = "https://issuer.test";
    static final String AUDIENCE = "http://127.0.0.1:8080/mcp";

    private final OAuthTokenVerifier verifier = verifier(SECRET);

    static OAuthTokenVerifier verifier(String secret) {
        return new OAuthTokenVerifier(properties(secret), new GatewayProperties());
    }

    /** The issuer with the development HS256 secret, written to a file as {@code dev-hs256-secret-file} reads it. */
    static OAuthProperties properties(String secret) {
        OAuthProperties oauth = new OAuthProperties();
        oauth.setIssuer(Optional.of(ISSUER));
        try {
            Path file = Files.createTempFile("gatehouse-dev-hs256", ".secret");
            file.toFile().deleteOnExit();
            Files.writeString(file, secret + "\n");
            oauth.setDevHs256SecretFile(Optional.of(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return oauth;
    }

    static String token(String secret, Consumer<JWTClaimsSet.Builder> claims) throws JOSEException {
        return token(secret, JOSEObjectType.JWT, claims);
    }

    static String token(String secret, JOSEObjectType type, Consumer<JWTClaimsSet.Builder> claims)
            throws JOSEException {
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("o1")
                .expirationTime(Date.from(Instant.now().plusSeconds(300))).claim("t3_mode_ceiling", "read-only");
        claims.accept(builder);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(type).build(), builder.build());
        jwt.sign(new MACSigner(secret.getBytes()));
        return jwt.serialize();
    }

    @Test
    void aValidTokenYieldsTheSubjectAndCeiling() throws JOSEException {
        Authenticated.OutsideAgent agent = verifier.verify(token(SECRET, c -> c.claim("t3_mode_ceiling", "auto"))).agent()
                .orElseThrow();
        assertEquals("o1", agent.subject());
        assertEquals("auto", agent.ceiling());
        assertEquals(ISSUER, agent.issuer());
        assertTrue(verifier.verify(token(SECRET, new JOSEObjectType("at+jwt"), c -> { })).agent().isPresent());
        assertTrue(verifier.verify(token(SECRET, new JOSEObjectType("id+jwt"), c -> { })).agent().isEmpty());
    }

    @Test
    void everyFailedCheckRejects() throws JOSEException {
        assertTrue(verifier.verify(token("another-secret-another-secret-0123456789", c -> { })).agent().isEmpty());
        assertTrue(verifier.verify(token(SECRET, c -> c.issuer("https://evil.test"))).agent().isEmpty());
        assertTrue(verifier.verify(token(SECRET, c -> c.audience("http://other/mcp"))).agent().isEmpty());
        assertTrue(verifier.verify(token(SECRET,
                c -> c.expirationTime(Date.from(Instant.now().minusSeconds(3600))))).agent().isEmpty());
        assertTrue(verifier.verify(token(SECRET, c -> c.expirationTime(null))).agent().isEmpty());
        assertTrue(verifier.verify(token(SECRET, c -> c.subject(null))).agent().isEmpty());
        // A blank subject would merge every such token of the issuer into one outside agent.
        for (String blank : new String[] {"", " ", "\t", "\u00a0", "\u2003", "\u200b", "\u0000", " \u00a0\t"}) {
            assertTrue(verifier.verify(token(SECRET, c -> c.subject(blank))).agent().isEmpty(), "sub " + blank);
        }
        assertTrue(verifier.verify("not-a-jwt").agent().isEmpty());
    }

    /**
     * The ceiling claim's syntax is checked here (present, a string, an RFC 9110 token of at most 64 characters) and
     * nothing else: which ceilings exist is policy data, judged by the policy (ceiling_unknown).
     */
    @Test
    void aCeilingOfTheWrongSyntaxIsAnInvalidToken() throws JOSEException {
        for (Object ceiling : List.of("", " ", "read only", "full-access ", "a/b", "r\u00e9", "x".repeat(65), "\u0000",
                3, true, List.of("auto"), Map.of("runtimeMode", "auto"))) {
            assertEquals(new OAuthTokenVerifier.Verification.Refused(AuthFailure.INVALID_TOKEN),
                    verifier.verify(token(SECRET, c -> c.claim("t3_mode_ceiling", ceiling))), String.valueOf(ceiling));
        }
        assertEquals(new OAuthTokenVerifier.Verification.Refused(AuthFailure.INVALID_TOKEN), verifier.verify(
                token(SECRET, c -> c.claim("t3_mode_ceiling", null))), "absent");
    }

    @Test
    void aWellFormedCeilingIsPassedOnAsReceivedKnownOrNot() throws JOSEException {
        for (String ceiling : List.of("read-only", "full-access", "root", "FULL-ACCESS", "Super_User.v2",
                "x".repeat(64), "!#$%&'*+-.^_`|~")) {
            assertEquals(ceiling, verifier.verify(token(SECRET, c -> c.claim("t3_mode_ceiling", ceiling))).agent()
                    .orElseThrow(() -> new AssertionError(ceiling)).ceiling());
        }
    }
}
