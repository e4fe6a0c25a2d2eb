package dev.gatehouse.gateway.store;

import java.sql.SQLTimeoutException;
import java.util.Optional;

/**
 * The request this thread serves had no store time left when a store call began: the budget every store call of the
 * request shares ({@code gatehouse.database.deadline}, {@link Database#requestBudget()}) was spent before the call
 * asked for a connection, so the call ran nothing. It is still a {@link StoreUnavailableException} for its callers
 * (the request is answered {@code unavailable}), but it says nothing about the store, which may be answering: a
 * component that changes course on a store outage (the quota limiter's local budgets) must not read it as one.
 */
public class RequestTimeSpentException extends StoreUnavailableException {

    RequestTimeSpentException() {
        super("no store time left for this request", new SQLTimeoutException("no store time left for this request"));
    }

    /** This exception when it is {@code failure} or one of its causes (a library may have wrapped it). */
    public static Optional<RequestTimeSpentException> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RequestTimeSpentException spent) {
                return Optional.of(spent);
            }
        }
        return Optional.empty();
    }
}
