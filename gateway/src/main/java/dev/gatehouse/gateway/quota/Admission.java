package dev.gatehouse.gateway.quota;

import dev.gatehouse.gateway.policy.api.Quota;
import java.util.Objects;

/**
 * What the PEP's quota enforcement made of one tools/call (docs/domain.md §10), as the decision log records it: the
 * call was not charged (not an enforceable allow), it was admitted and charged one token, or it was refused
 * {@code rate_limited} because its bucket was empty ({@link OverBudget}) or its caller already had every place it
 * may hold in the PDP and the handlers ({@link OverShare}), or its bucket could not be read in the request's time
 * ({@link TimeSpent}). A refused call never reaches its handler.
 */
public sealed interface Admission {

    /** Which budget answered: the one every replica shares in PostgreSQL, or this replica's own while that is down. */
    enum Budget {
        SHARED, LOCAL;

        /** The word the decision log, metrics and /health use. */
        public String wire() {
            return this == SHARED ? "shared" : "local";
        }
    }

    /** A denial, a fault or a listing: nothing was charged. */
    record NotCharged() implements Admission {
    }

    /** Charged one token of {@code quota}'s bucket; the call goes on. */
    record Admitted(Quota quota, Budget budget) implements Admission {
        public Admitted {
            Objects.requireNonNull(quota, "quota");
            Objects.requireNonNull(budget, "budget");
        }
    }

    /**
     * The bucket had no token within the wait the PEP allows; nothing was charged.
     *
     * @param retryAfterMs when the bucket has a token again, counted from the refusal, in ms (at least 1)
     */
    record OverBudget(Quota quota, Budget budget, long retryAfterMs) implements Admission {
        public OverBudget {
            Objects.requireNonNull(quota, "quota");
            Objects.requireNonNull(budget, "budget");
        }
    }

    /**
     * The request's store time was spent before its shared bucket could be read (a fault of this request, not of the
     * store, so the budgets stay shared): nothing was charged and the call does not run. The gate answers it
     * {@code unavailable} (retryable), never {@code rate_limited} and never a denial.
     */
    record TimeSpent(Quota quota) implements Admission {
        public TimeSpent {
            Objects.requireNonNull(quota, "quota");
        }
    }

    /**
     * The caller already had {@code gatehouse.quotas.in-flight} calls in the PDP and the handlers and either
     * {@code queued} more waiting, or no place came free within {@code max-wait}; nothing was decided or charged.
     *
     * @param retryAfterMs a time after which a place is likely free, in ms (at least 1)
     */
    record OverShare(long retryAfterMs) implements Admission {
    }
}
