package dev.gatehouse.gateway.policy.bundle;

/**
 * A bundle that cannot be used: missing, unreadable, too large, not verified (signature, key, scope, file list,
 * file hash), without a manifest revision, or without its policy module or data. The message says which, for the
 * log and the health endpoint; it never contains key material.
 */
public final class BundleException extends Exception {

    public BundleException(String message) {
        super(message);
    }

    public BundleException(String message, Throwable cause) {
        super(message, cause);
    }
}
