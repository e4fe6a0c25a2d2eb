package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.gate.GateFault;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.util.Map;
import java.util.Optional;

/**
 * The one answer to a {@link GateFault}, the same for tools/call and tools/list in both eras: HTTP 503 with
 * {@code Retry-After} and JSON-RPC error -32603 whose message says what did not happen (nothing was decided; or a
 * decision that could not be logged, or whose quota could not be charged, was not acted on: the call did not run) and
 * names the decision record when there is one. Retryable, never a denial, never an empty list a client would cache;
 * no fault detail reaches the caller.
 */
final class GateFaultReply {

    private GateFaultReply() {
    }

    /** The rejection for {@code fault}, echoing the request's id. */
    static Rejection of(GateFault fault, Optional<Object> id) {
        String decision = fault.decisionId().map(decisionId -> " (decision " + decisionId + ")").orElse("");
        return new Rejection(503, Optional.of(Rejection.INTERNAL_ERROR),
                "unavailable: " + what(fault.kind()) + "; retry" + decision, id,
                Map.of("Retry-After", Rejection.RETRY_AFTER_SECONDS));
    }

    /** What did not happen, by where the steps stopped: the log names the decision, so this must not deny it. */
    private static String what(GateFault.Kind kind) {
        return switch (kind) {
            case FACTS, DECISION -> "nothing was decided";
            case DECISION_LOG -> "the decision could not be logged, so the call did not run";
            case QUOTA -> "the call's quota could not be charged, so the call did not run";
        };
    }
}
