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
}
