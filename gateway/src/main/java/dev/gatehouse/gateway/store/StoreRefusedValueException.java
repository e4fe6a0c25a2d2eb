package dev.gatehouse.gateway.store;

/**
 * The shared store refused a value it was asked to keep (SQLState class 22, a data exception: U+0000 in a text,
 * which PostgreSQL cannot store, is 22021). The statement wrote nothing, and sending it again can never succeed, so
 * unlike {@link StoreUnavailableException} it is the caller's bad input: the admin API and the console answer it
 * 400 {@code invalid_fields}, never 503 with {@code Retry-After}. The message names the SQLState only, never the value.
 */
public class StoreRefusedValueException extends RuntimeException {

    StoreRefusedValueException(String sqlState, Throwable cause) {
        super("the shared store cannot keep a value of this request (SQLState " + sqlState + ")", cause);
    }
}
