package dev.gatehouse.gateway.policy.embedded;

/** A bundle that cannot be used: missing, unreadable, too large, or without its policy module or data. */
public final class BundleException extends Exception {

    BundleException(String message) {
        super(message);
    }

    BundleException(String message, Throwable cause) {
        super(message, cause);
    }
}
