package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.gateway.gate.GateResult;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Service failures become structured tool errors carrying the toolkit's recovery hint (docs/domain.md §8); denials
 * made only of faults are retryable {@code unavailable} answers, not denials.
 */
class ToolReplyTest {

    private static ToolReply failed(Optional<String> hint, ServiceError error) {
        return ToolReply.of(new GateResult.Completed("d-1", new ToolOutcome.Failed(error, hint)));
    }

    @Test
    void aFailureCarriesItsHintAndOperationId() {
        ToolReply conflict = failed(Optional.of("project_work_list"), new ServiceError.Conflict("stale run revision"));
        ToolReply uncertain = failed(Optional.of("project_operation_get"),
                new ServiceError.Uncertain("no answer", Optional.of("op-7")));

        assertTrue(conflict.isError());
        assertEquals("conflict", conflict.structuredContent().get("kind"));
        assertEquals("project_work_list", conflict.structuredContent().get("hint"));
        assertEquals("project_operation_get", uncertain.structuredContent().get("hint"));
        assertEquals("op-7", uncertain.structuredContent().get("operationId"));
        assertEquals("d-1", uncertain.structuredContent().get("decisionId"));
    }

    @Test
    void aFailureWithoutAHintCarriesNone() {
        ToolReply unavailable = failed(Optional.empty(), new ServiceError.Unavailable("down"));

        assertFalse(unavailable.structuredContent().containsKey("hint"));
        assertEquals("unavailable", unavailable.structuredContent().get("kind"));
    }

    /** Every unavailable an agent gets says it is retryable, as a retryable denial does; no other kind does. */
    @Test
    void onlyAnUnavailableServiceFailureIsRetryable() {
        for (ServiceError error : List.of(new ServiceError.Unavailable("down"), new ServiceError.Conflict("stale"),
                new ServiceError.Uncertain("no answer", Optional.empty()), new ServiceError.NotFound("gone", "page"),
                new ServiceError.Rejected("no", "code"), new ServiceError.Authentication("refused"),
                new ServiceError.Incompatible("odd"))) {
            Map<String, Object> body = failed(Optional.empty(), error).structuredContent();
            assertEquals(error instanceof ServiceError.Unavailable ? true : null, body.get("retryable"),
                    error.kind());
        }
    }

    /** Which reasons are retryable is the gate's to say, from the deciding revision's catalogue. */
    @Test
    void aRetryableDenialIsUnavailableAndAnyOtherIsDenied() {
        ToolReply retryable = ToolReply.of(new GateResult.Denied("d-2", List.of(new Decision.Reason("x", "m")), true));
        assertEquals("unavailable", retryable.structuredContent().get("kind"));
        assertEquals(true, retryable.structuredContent().get("retryable"));
        ToolReply denied = ToolReply.of(new GateResult.Denied("d-3", List.of(new Decision.Reason("x", "m")), false));
        assertEquals("denied", denied.structuredContent().get("kind"));
        assertFalse(denied.structuredContent().containsKey("retryable"));
    }

    /** Over a quota or a fair share (docs/domain.md §10): a retryable tool error that says when to retry. */
    @Test
    void aRateLimitedCallSaysWhenToRetry() {
        ToolReply limited = ToolReply.of(new GateResult.RateLimited("d-4",
                new Decision.Reason("rate_limited", "over this agent's budget"), 1_250));
        assertTrue(limited.isError());
        assertEquals("rate_limited", limited.structuredContent().get("kind"));
        assertEquals(true, limited.structuredContent().get("retryable"));
        assertEquals(1_250L, limited.structuredContent().get("retryAfterMs"));
        assertEquals("d-4", limited.structuredContent().get("decisionId"));
        assertEquals(List.of(Map.of("code", "rate_limited", "message", "over this agent's budget")),
                limited.structuredContent().get("reasons"));
    }
}
