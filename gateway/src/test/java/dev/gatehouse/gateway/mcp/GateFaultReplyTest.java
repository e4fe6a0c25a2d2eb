package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.gate.GateFault;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every kind of gate fault is the same retryable 503, and its message does not deny what the decision log says: a
 * call whose quota could not be charged, or whose decision could not be logged, was decided (its record says allow)
 * and did not run; only a fault before or at the decision is "nothing was decided" (a new user's trial found a
 * stalled service's quota fault answered "nothing was decided" beside a record with {@code "allow": true}).
 */
class GateFaultReplyTest {

    private static final UUID DECISION = UUID.fromString("0b0c4d1e-2f3a-4b5c-8d6e-7f8091a2b3c4");

    @Test
    void everyFaultIsARetryable503ThatNamesItsRecordAndSaysWhatDidNotHappen() {
        for (GateFault.Kind kind : GateFault.Kind.values()) {
            Optional<UUID> record = kind == GateFault.Kind.FACTS ? Optional.empty() : Optional.of(DECISION);
            Rejection reply = GateFaultReply.of(new GateFault(kind, record, "operator detail"), Optional.of(7L));
            assertEquals(503, reply.status(), kind.name());
            assertEquals(Optional.of(Rejection.INTERNAL_ERROR), reply.jsonRpcCode(), kind.name());
            assertEquals(Optional.of(7L), reply.id(), kind.name());
            assertEquals(Rejection.RETRY_AFTER_SECONDS, reply.headers().get("Retry-After"), kind.name());
            assertTrue(reply.message().startsWith("unavailable: "), reply.message());
            assertFalse(reply.message().contains("operator detail"), "no fault detail reaches the caller");
            record.ifPresent(id -> assertTrue(reply.message().endsWith("; retry (decision " + id + ")"),
                    reply.message()));
            boolean decided = kind == GateFault.Kind.QUOTA || kind == GateFault.Kind.DECISION_LOG;
            assertEquals(!decided, reply.message().contains("nothing was decided"), reply.message());
            assertEquals(decided, reply.message().contains("the call did not run"), reply.message());
        }
    }
}
