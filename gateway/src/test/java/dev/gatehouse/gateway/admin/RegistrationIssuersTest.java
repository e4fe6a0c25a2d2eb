package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.auth.OAuthProperties;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A registration's issuer is an OAuth issuer identifier (RFC 8414 §2; {@code issuer.example} and
 * {@code https://issuer.example/} were accepted, and no token's {@code iss} matches them): https, a host, no query,
 * fragment, user information or trailing slash; http on loopback hosts for local servers; and the configured issuer
 * exactly as configured. A later trial found port 0 and 99999, a raw right-to-left override in the path and a
 * non-ASCII host accepted: the host is ASCII (an IDN in its A-label form), a port 1 to 65535, and no character
 * anywhere is a control, a bidirectional control or otherwise not printable, written or percent-encoded in the path,
 * whose percent-encoded bytes are UTF-8. Every refusal says the forms accepted.
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
            "https://issuer-a_B.example", "https://issuer.example:1", "https://issuer.example:65535",
            "https://xn--bcher-kva.example", "https://[2001:db8::1]:8443/realm", "https://issuer.example/t%C3%ABnant",
            "https://issuer.example/t\u00ebnant", "https://issuer.example/%41%2Fb%7E",
            "https://issuer.example/%F0%9F%98%80");

    /** A port outside 1 to 65535, or not written as a plain number. */
    private static final List<String> PORTS = List.of("https://issuer.example:0", "https://issuer.example:99999",
            "https://issuer.example:65536", "https://issuer.example:00443", "https://issuer.example:0443",
            "https://issuer.example:", "https://issuer.example:-1", "https://issuer.example:+443",
            "https://issuer.example:443:443", "http://127.0.0.1:0/gatehouse", "http://[::1]:70000",
            "https://issuer.example:9999999999", "https://issuer_a.example:0");

    /** Hosts that are not ASCII: the IDN itself, look-alike letters, fullwidth forms, another script's dots. */
    private static final List<String> HOSTS = List.of("https://b\u00fccher.example", "https://issuer.ex\u0430mple",
            "https://\uff49ssuer.example", "https://issuer\u3002example", "http://\uff4cocalhost/issuer",
            "https://\u0438\u0441\u0441\u0443\u0435\u0440.example/tenant", "https://issuer.example\uff1a8443",
            "https://b%C3%BCcher.example");

    @Test
    void whatCannotBeAnOAuthIssuerIsRefusedOnTheIssuerField() {
        RegistrationIssuers issuers = new RegistrationIssuers(new OAuthProperties());
        for (String issuer : REFUSED) {
            assertRefused(issuers, issuer, "");
        }
        for (String issuer : ACCEPTED) {
            assertEquals(Optional.empty(), issuers.problem(issuer), issuer);
        }
    }

    @Test
    void aPortOutsideOneTo65535IsRefused() {
        RegistrationIssuers issuers = new RegistrationIssuers(new OAuthProperties());
        for (String issuer : PORTS) {
            assertRefused(issuers, issuer, "port");
        }
    }

    @Test
    void aHostThatIsNotAsciiIsRefused() {
        RegistrationIssuers issuers = new RegistrationIssuers(new OAuthProperties());
        for (String issuer : HOSTS) {
            assertRefused(issuers, issuer, "host");
        }
    }

    /** How a written character with nothing to read is refused: a space is said to be one (a new user's trial). */
    private static final String WRITTEN = "It holds a space, control, bidirectional-control, invisible or other"
            + " non-printable character.";
    /** The same, percent-encoded in the path. */
    private static final String ENCODED = "Its path holds a percent-encoded space, control, bidirectional-control,"
            + " invisible or other non-printable character.";

    /**
     * Every control (C0, DEL, C1), every bidirectional control (Unicode Bidi_Control), the invisible and the separators
     * (a space, a no-break space, U+3000, U+2028), noncharacters and tag characters, in the host, the path, before and
     * after: generated for each position.
     */
    @Test
    void aControlBidiControlOrOtherNonPrintableCharacterAnywhereIsRefused() {
        List<Integer> characters = new ArrayList<>();
        for (int c = 0; c <= 0x1f; c++) {
            characters.add(c);
        }
        for (int c = 0x7f; c <= 0x9f; c++) {
            characters.add(c);
        }
        characters.addAll(List.of(0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067,
                0x2068, 0x2069, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x034f, 0x180e, 0x3164, 0x2028, 0x2029,
                0x00a0, 0x2007, 0x3000, 0xe000, 0xf8ff, 0x0378, 0xe0001, 0xfe0f, 0xd800, 0x0020, 0x1680, 0x202f, 0x115f,
                0xfffe, 0xffff, 0xfdd0, 0x10ffff, 0xe007f, 0xe0020));
        Map<String, String> positions = Map.of("before", "%shttps://issuer.example/tenant",
                "in the host", "https://iss%suer.example/tenant", "in the path", "https://issuer.example/ten%sant",
                "after", "https://issuer.example/tenant%s", "on a loopback", "http://127.0.0.1:8282/gate%shouse");
        RegistrationIssuers issuers = new RegistrationIssuers(new OAuthProperties());
        for (int c : characters) {
            for (Map.Entry<String, String> position : positions.entrySet()) {
                String issuer = position.getValue().replace("%s", new String(Character.toChars(c)));
                assertRefused(issuers, issuer, WRITTEN);
            }
        }
    }

    /**
     * The same characters percent-encoded in the path (a new user's trial: {@code https://idp.example/%E2%80%AEabc},
     * {@code %00}, {@code %0A} and {@code %C2%A0} were accepted), in either case of hex digit, and bytes that are not
     * UTF-8 ({@code %FF}, an overlong form, an encoded surrogate, a cut sequence, beyond U+10FFFF).
     */
    @Test
    void aPercentEncodedNonPrintableCharacterOrBytesThatAreNotUtf8AreRefused() {
        RegistrationIssuers issuers = new RegistrationIssuers(new OAuthProperties());
        for (String issuer : List.of("https://idp.example/%E2%80%AEabc", "https://idp.example/%00",
                "https://idp.example/%0A", "https://idp.example/%C2%A0", "https://idp.example/a%e2%80%aeb",
                "http://127.0.0.1:8282/gate%0Dhouse", "https://idp.example:8443/%7F", "https://idp.example/a%20b",
                "https://idp.example/%E2%80%8B", "https://idp.example/%E3%80%80", "https://idp.example/%EF%BF%BF")) {
            assertRefused(issuers, issuer, ENCODED);
        }
        List<Integer> characters = new ArrayList<>(List.of(0x00, 0x09, 0x0a, 0x1b, 0x7f, 0x85, 0x9f, 0x061c, 0x200e,
                0x202e, 0x2066, 0x2069, 0x200b, 0x2060, 0xfeff, 0x00ad, 0x3164, 0x2028, 0x00a0, 0x3000, 0xe000, 0x0378,
                0xe0001, 0xfe0f, 0x20, 0x1680, 0x202f, 0x115f, 0xfffe, 0xffff, 0xfdd0, 0x10ffff, 0xe007f, 0xe0020));
        for (int c : characters) {
            StringBuilder encoded = new StringBuilder();
            for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
                encoded.append(String.format("%%%02X", b & 0xff));
            }
            for (String form : List.of("https://issuer.example/ten%sant", "https://issuer.example/tenant%s",
                    "https://issuer.example/%s", "http://localhost:8080/a/%s/b")) {
                assertRefused(issuers, form.replace("%s", encoded), ENCODED);
                assertRefused(issuers, form.replace("%s", encoded.toString().toLowerCase(Locale.ROOT)),
                        ENCODED);
            }
        }
        for (String bytes : List.of("%FF", "%fe", "%80", "%C0%AF", "%E0%80%AF", "%ED%A0%80", "%E2%80", "%C2",
                "%F4%90%80%80", "%F8%88%80%80%80", "a%E2%80%AE%FF")) {
            assertRefused(issuers, "https://idp.example/x" + bytes, "not UTF-8");
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

    /** Refused on {@code issuer}, saying why (with {@code why} in it) and then every form accepted. */
    private static void assertRefused(RegistrationIssuers issuers, String issuer, String why) {
        String label = issuer.codePoints().mapToObj(c -> c < 0x20 || c > 0x7e ? String.format("U+%04X", c)
                : Character.toString(c)).reduce("", String::concat);
        Optional<FieldProblem> problem = issuers.problem(issuer);
        assertTrue(problem.isPresent(), label);
        assertEquals("issuer", problem.get().field(), label);
        String message = problem.get().message();
        assertTrue(message.startsWith("Not an OAuth issuer (RFC 8414 §2): "), label + ": " + message);
        assertTrue(message.endsWith(RegistrationIssuers.FORMS), label + ": " + message);
        String reason = message.substring(0, message.length() - RegistrationIssuers.FORMS.length());
        assertTrue(reason.contains(why), label + ": " + message);
    }
}
