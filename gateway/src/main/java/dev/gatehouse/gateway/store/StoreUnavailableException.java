package dev.gatehouse.gateway.store;

/**
 * The shared store (PostgreSQL) could not answer: no connection or no answer within the request's store deadline
 * ({@code gatehouse.database.deadline}), a lost connection, a statement that failed. Nothing was decided and nothing
 * was half-written (every write is one statement), so the transport answers {@code unavailable} (HTTP 503 with
 * {@code Retry-After}) and the caller may retry; it is never a policy denial. The message names the failure kind
 * only, never SQL or values.
 */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
