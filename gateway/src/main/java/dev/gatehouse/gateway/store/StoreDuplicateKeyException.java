package dev.gatehouse.gateway.store;

/**
 * The shared store refused a write because a unique index already holds its key (SQLState 23505): the statement, and
 * the transaction it ran in, wrote nothing. Sending it again fails the same way while that row stays, so it is not
 * {@link StoreUnavailableException}; the store that ran the statement knows which key it was and says what that means
 * to its callers. The message names the SQLState only, never the value.
 */
public class StoreDuplicateKeyException extends RuntimeException {

    StoreDuplicateKeyException(Throwable cause) {
        super("the shared store already holds this key (SQLState " + Database.UNIQUE_VIOLATION + ")", cause);
    }
}
