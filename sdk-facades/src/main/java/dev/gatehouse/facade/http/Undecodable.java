package dev.gatehouse.facade.http;

/**
 * Thrown by a {@link Projection} when a service answer lacks a field or has the wrong type; mapped to
 * {@code incompatible}. The message names the field, never its value.
 */
public final class Undecodable extends Exception {

    public Undecodable(String message) {
        super(message, null, false, false);
    }
}
