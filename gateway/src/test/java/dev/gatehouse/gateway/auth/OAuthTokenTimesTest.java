package dev.gatehouse.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 8 item 2: {@code exp}, {@code nbf} and {@code iat} against a fixed clock with the configured leeway
 * (RFC 7519 §4.1.4–4.1.6, RFC 9068 §4). Every token here is otherwise valid, so only its times decide.
 */
class OAuthTokenTimesTest {

    static final String SECRET = OAuthTokenVerifierTest.SECRET;
    /** Far from the real time, so a check that used the system clock would fail these tests. */
    static final Instant NOW = Instant.parse("2031-03-04T05:06:07Z");
    static final int LEEWAY = 5;

    /** The claim a test moves, and how it is set at {@code NOW + offset}. */
    enum TimeClaim {
        EXP((b, t) -> b.expirationTime(t)),
        NBF((b, t) -> b.notBeforeTime(t)),
        IAT((b, t) -> b.issueTime(t));

        final BiConsumer<JWTClaimsSet.Builder, Date> set;

        TimeClaim(BiConsumer<JWTClaimsSet.Builder, Date> set) {
            this.set = set;
        }

        /** The rule under test: exp until (not at) exp + L; nbf and iat up to and including now + L. */
        boolean accepted(int offset, int leeway) {
            return this == EXP ? offset > -leeway : offset <= leeway;
        }
    }

    static OAuthTokenVerifier verifier(Duration leeway) {
        OAuthProperties oauth = OAuthTokenVerifierTest.properties(SECRET);
        oauth.setClockSkew(leeway);
        return new OAuthTokenVerifier(oauth, new GatewayProperties(), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    /** A valid token at {@code NOW} (exp in 5 min, nbf and iat a minute ago) with {@code claim} at {@code NOW + offset}. */
    static String token(TimeClaim claim, long offsetSeconds) throws JOSEException {
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder().issuer(OAuthTokenVerifierTest.ISSUER)
                .audience(OAuthTokenVerifierTest.AUDIENCE).subject("o1").claim("t3_mode_ceiling", "read-only")
                .expirationTime(Date.from(NOW.plusSeconds(300)))
                .notBeforeTime(Date.from(NOW.minusSeconds(60)))
                .issueTime(Date.from(NOW.minusSeconds(60)));
        if (claim != null) {
            claim.set.accept(builder, Date.from(NOW.plusSeconds(offsetSeconds)));
        }
        return sign(builder.build());
    }

    static String sign(JWTClaimsSet claims) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT).build(),
                claims);
        jwt.sign(new MACSigner(SECRET.getBytes(StandardCharsets.UTF_8)));
        return jwt.serialize();
    }

    private final OAuthTokenVerifier verifier = verifier(Duration.ofSeconds(LEEWAY));

    @Test
    void theDefaultLeewayIsFiveSeconds() {
        assertEquals(Duration.ofSeconds(5), new OAuthProperties().getClockSkew());
    }

    @Test
    void aTokenValidAtTheFixedClockPasses() throws JOSEException {
        assertTrue(verifier.verify(token(null, 0)).agent().isPresent());
    }

    @ParameterizedTest(name = "{0}: leeway - 1 s accepted, leeway + 1 s refused")
    @ValueSource(strings = {"EXP", "NBF", "IAT"})
    void boundaries(TimeClaim claim) throws JOSEException {
        int inside = claim == TimeClaim.EXP ? -(LEEWAY - 1) : LEEWAY - 1;
        int outside = claim == TimeClaim.EXP ? -(LEEWAY + 1) : LEEWAY + 1;
        assertTrue(verifier.verify(token(claim, inside)).agent().isPresent(), claim + " at " + inside + " s");
        assertTrue(verifier.verify(token(claim, outside)).agent().isEmpty(), claim + " at " + outside + " s");
    }

    @Test
    void theReportedCasesAreRefused() throws JOSEException {
        assertTrue(verifier.verify(token(TimeClaim.EXP, -59)).agent().isEmpty(), "exp 59 s ago");
        assertTrue(verifier.verify(token(TimeClaim.NBF, 30)).agent().isEmpty(), "nbf 30 s ahead");
        assertTrue(verifier.verify(token(TimeClaim.IAT, 365L * 24 * 3600)).agent().isEmpty(), "iat a year ahead");
    }

    @Test
    void aTokenWithoutExpIsRefused() throws JOSEException {
        JWTClaimsSet noExp = new JWTClaimsSet.Builder().issuer(OAuthTokenVerifierTest.ISSUER)
                .audience(OAuthTokenVerifierTest.AUDIENCE).subject("o1").claim("t3_mode_ceiling", "read-only")
                .issueTime(Date.from(NOW)).build();
        assertTrue(verifier.verify(sign(noExp)).agent().isEmpty());
    }

    @Test
    void aTokenWithoutNbfOrIatIsAccepted() throws JOSEException {
        JWTClaimsSet onlyExp = new JWTClaimsSet.Builder().issuer(OAuthTokenVerifierTest.ISSUER)
                .audience(OAuthTokenVerifierTest.AUDIENCE).subject("o1").claim("t3_mode_ceiling", "read-only")
                .expirationTime(Date.from(NOW.plusSeconds(60))).build();
        assertTrue(verifier.verify(sign(onlyExp)).agent().isPresent());
    }

    /** Every claim, every offset from -120 s to +120 s in 1 s steps, at the default leeway. */
    static Stream<Arguments> sweep() {
        return Stream.of(TimeClaim.values())
                .flatMap(claim -> IntStream.rangeClosed(-120, 120).mapToObj(offset -> Arguments.of(claim, offset)));
    }

    @ParameterizedTest(name = "{0} at {1} s")
    @MethodSource("sweep")
    void acceptedExactlyWithinTheLeeway(TimeClaim claim, int offset) throws JOSEException {
        assertEquals(claim.accepted(offset, LEEWAY), verifier.verify(token(claim, offset)).agent().isPresent());
    }

    /** Other leeways: every claim, offsets -70 s to +70 s in 1 s steps (423 tokens per leeway). */
    @ParameterizedTest(name = "leeway {0} s")
    @ValueSource(ints = {0, 1, 30, 60})
    void otherLeewaysHoldTheSameRule(int leeway) throws JOSEException {
        OAuthTokenVerifier v = verifier(Duration.ofSeconds(leeway));
        for (TimeClaim claim : TimeClaim.values()) {
            for (int offset = -70; offset <= 70; offset++) {
                assertEquals(claim.accepted(offset, leeway), v.verify(token(claim, offset)).agent().isPresent(),
                        claim + " at " + offset + " s with leeway " + leeway + " s");
            }
        }
    }

    @ParameterizedTest(name = "clock-skew {0} refused")
    @ValueSource(strings = {"PT61S", "PT5M", "PT-1S"})
    void anInsaneLeewayIsRefusedInConfiguration(String value) {
        assertThrows(IllegalArgumentException.class, () -> new OAuthProperties().setClockSkew(Duration.parse(value)));
    }

    @Test
    void aTimeFailureIsA401InvalidTokenChallenge() throws JOSEException {
        Authenticator authenticator = new Authenticator(new dev.gatehouse.gateway.support.InMemorySessionStore(), verifier);
        Authenticator.Result result = authenticator.authenticate(
                Optional.of("Bearer " + token(TimeClaim.EXP, -(LEEWAY + 1))));
        AuthFailure failure = assertInstanceOf(Authenticator.Result.Rejected.class, result).failure();
        assertEquals(AuthFailure.INVALID_TOKEN, failure);
        assertEquals("Bearer resource_metadata=\"http://127.0.0.1:8080/.well-known/oauth-protected-resource\", "
                + "error=\"invalid_token\"", new AuthChallenge(new GatewayProperties(), new OAuthProperties()).header(failure));
    }
}
