package dev.gatehouse.gateway.mcp.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Public-failures row 13: DNS rebinding with and without an Origin header. */
class OriginGuardTest {

    private final OriginGuard guard = new OriginGuard(List.of("http://127.0.0.1:*", "http://localhost:*"),
            List.of("127.0.0.1:*", "localhost:*"));

    @Test
    void foreignNullOrRepeatedOriginsAreForbidden() {
        for (List<String> origin : List.of(List.of("http://attacker.example"), List.of("null"),
                List.of("http://127.0.0.1.attacker.example:80"), List.of("http://127.0.0.1:1", "http://x"))) {
            Optional<Rejection> rejection = guard.check(origin, Optional.of("127.0.0.1:8080"));
            assertEquals(403, rejection.orElseThrow().status(), origin.toString());
        }
    }

    @Test
    void aForeignHostWithoutOriginIsForbidden() {
        assertEquals(403, guard.check(List.of(), Optional.of("attacker.example:8080")).orElseThrow().status());
        assertEquals(403, guard.check(List.of(), Optional.empty()).orElseThrow().status());
    }

    @Test
    void loopbackWithOrWithoutOriginPasses() {
        assertTrue(guard.check(List.of(), Optional.of("127.0.0.1:8080")).isEmpty());
        assertTrue(guard.check(List.of("http://localhost:6274"), Optional.of("localhost:8080")).isEmpty());
        assertTrue(guard.check(List.of(), Optional.of("localhost")).isEmpty());
    }

    @Test
    void aPortPatternTakesTheNameAloneOrWithDigitsAfterItsColon() {
        OriginGuard exact = new OriginGuard(List.of("http://localhost:3000"), List.of("gate.example:*"));
        for (String host : List.of("gate.example", "gate.example:1", "GATE.example:65535", " gate.example:8080 ")) {
            assertTrue(exact.check(List.of(), Optional.of(host)).isEmpty(), host);
        }
        for (String host : List.of("gate.example:", "gate.example:80a", "gate.example:-1", "gate.example:80:81",
                "gate.exampl", "gate.examplex:80", "xgate.example:80", "gate.example.evil:80", ":80", "",
                "gate.example*", "gate-example:80")) {
            assertEquals(403, exact.check(List.of(), Optional.of(host)).orElseThrow().status(), host);
        }
        assertTrue(exact.check(List.of("HTTP://LOCALHOST:3000"), Optional.of("gate.example")).isEmpty());
        for (String origin : List.of("http://localhost:3001", "http://localhost", "http://localhost:3000/")) {
            assertEquals(403, exact.check(List.of(origin), Optional.of("gate.example")).orElseThrow().status(),
                    origin);
        }
    }
}
