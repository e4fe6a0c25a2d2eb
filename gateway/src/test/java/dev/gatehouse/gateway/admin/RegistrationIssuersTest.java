package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.auth.OAuthProperties;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A registration's issuer is an OAuth issuer identifier (RFC 8414 §2; {@code issuer.example} and
 * {@code https://issuer.example/} were accepted, and no token's {@code iss} matches them): https, a host, no query,
 * fragment, user information or trailing slash; http on loopback hosts for local servers; and the configured issuer
 * exactly as configured.
 */
class RegistrationIssuersTest {

    private static final List<String> REFUSED = List.of("issuer.example", "issuer", "/gatehouse", "https://",
            "https:issuer.example", "https:///path", "https://issuer.example/", "https://issuer.example/tenant/",
            "http://issuer.example", "http://issuer.example/", "http://10.0.0.1/issuer", "http://localhost.example",
            "http://127.0.0.1.nip.io", "ftp://issuer.example", "HTTPS://issuer.example", "https://issuer.example?x=1",
            "https://issuer.example/?", "https://issuer.example#f", "https://issuer.example/a#",
            "https://user:secret@issuer.example", "https://issuer example", "https://issuer.example/a b",
            "http://127.0.0.1:8282/gatehouse/", "https://\u0069ssuer.example/%zz");

    private static final List<String> ACCEPTED = List.of("https://issuer.example", "https://issuer.example/tenant",
            "https://issuer.example:8443/realms/dev", "https://192.0.2.1", "http://127.0.0.1:8282/gatehouse",
            "http://127.1.2.3", "http://localhost:8080/default", "http://[::1]:9000/issuer",
            "https://issuer-a_B.example");

    @Test
    void whatCannotBeAnOAuthIssuerIsRefusedOnTheIssuerField() {
        RegistrationIssuers issuers = new RegistrationIssuers(new OAuthProperties());
        for (String issuer : REFUSED) {
            Optional<FieldProblem> problem = issuers.problem(issuer);
            assertTrue(problem.isPresent(), issuer);
            assertEquals("issuer", problem.get().field(), issuer);
            assertTrue(problem.get().message().startsWith("Not an OAuth issuer (RFC 8414 §2): "), issuer);
        }
        for (String issuer : ACCEPTED) {
            assertEquals(Optional.empty(), issuers.problem(issuer), issuer);
        }
    }

    /** The issuer the gateway trusts is what its tokens carry, whatever its form (a container's host, a slash). */
    @Test
    void theConfiguredIssuerIsAcceptedExactlyAsConfigured() {
        for (String configured : List.of("http://mock-oauth2-server:8080/default", "https://tenant.auth.example/")) {
            OAuthProperties oauth = new OAuthProperties();
            oauth.setIssuer(Optional.of(configured));
            RegistrationIssuers issuers = new RegistrationIssuers(oauth);
            assertEquals(Optional.empty(), issuers.problem(configured), configured);
            assertTrue(issuers.problem(configured + "x/").isPresent(), "only the configured one: " + configured);
        }
    }
}
