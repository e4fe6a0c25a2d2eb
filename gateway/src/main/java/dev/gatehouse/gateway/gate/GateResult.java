package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.policy.api.Decision.Reason;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.List;
import java.util.Objects;

/**
 * What the PEP answers for one tools/call, as a value (never an exception): a {@link Decided} result carries the
 * decision id the decision log recorded before anything else happened, so the agent can quote it; a fault
 * ({@link Unavailable}) decided nothing that may be acted on.
 */
public sealed interface GateResult {

    /** A result of a logged decision. */
    sealed interface Decided extends GateResult {

        /** The decision log id of this call. */
        String decisionId();
    }

    /**
     * The policy denied the call, or allowed what the PEP cannot enforce ({@code policy_unavailable}). No handler ran.
     *
     * @param reasons   one per reason code, in policy order; never empty
     * @param retryable every reason reports a fault the caller may retry (the reason catalogue of the revision that
     *                  decided, docs/domain.md §8), not a decision against the call
     */
    record Denied(String decisionId, List<Reason> reasons, boolean retryable) implements Decided {
        public Denied {
            Objects.requireNonNull(decisionId, "decisionId");
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * The call was over its quota, or its caller over its fair share of the gateway (docs/domain.md §10): a retryable
     * refusal, never a denial, logged under {@code decisionId}. No handler ran and no backend was called.
     *
     * @param reason       always {@code rate_limited}
     * @param retryAfterMs when to try again, in ms (at least 1)
     */
    record RateLimited(String decisionId, Reason reason, long retryAfterMs) implements Decided {
        public RateLimited {
            Objects.requireNonNull(decisionId, "decisionId");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The call was allowed and its handler returned {@code outcome} (a result or a service failure). */
    record Completed(String decisionId, ToolOutcome outcome) implements Decided {
        public Completed {
            Objects.requireNonNull(decisionId, "decisionId");
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    /** The call was allowed but its handler broke its contract by throwing; the detail stays in the server log. */
    record HandlerFault(String decisionId) implements Decided {
        public HandlerFault {
            Objects.requireNonNull(decisionId, "decisionId");
        }
    }

    /**
     * Nothing that may be acted on was decided: the store did not answer, the PDP could not decide (busy past the
     * decision deadline, no bundle, an engine fault), or its decision could not be logged. A retryable fault, never a
     * denial; the transport answers it as unavailable (HTTP 503 with {@code Retry-After}). No handler ran.
     */
    record Unavailable(GateFault fault) implements GateResult {
        public Unavailable {
            Objects.requireNonNull(fault, "fault");
        }
    }
}
