package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class HandshakeSessionsTest {

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {
        Instant now = Instant.parse("2026-11-30T08:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void aSessionBelongsOnlyToItsOwnerUntilUnboundOrIdle() {
        ManualClock clock = new ManualClock();
        HandshakeSessions sessions = new HandshakeSessions(Duration.ofMinutes(10), clock);
        sessions.bind("s1", "session:a1");
        assertTrue(sessions.ownedBy("s1", "session:a1"));
        assertFalse(sessions.ownedBy("s1", "session:a2"));
        assertFalse(sessions.ownedBy("unknown", "session:a1"));

        clock.now = clock.now.plus(Duration.ofMinutes(9));
        assertTrue(sessions.ownedBy("s1", "session:a1"));
        clock.now = clock.now.plus(Duration.ofMinutes(9));
        sessions.forgetIdle();
        assertTrue(sessions.ownedBy("s1", "session:a1"), "use refreshed the binding");
        clock.now = clock.now.plus(Duration.ofMinutes(11));
        sessions.forgetIdle();
        assertFalse(sessions.ownedBy("s1", "session:a1"));

        sessions.bind("s2", "session:a1");
        sessions.unbind("s2");
        assertFalse(sessions.ownedBy("s2", "session:a1"));
    }
}
