package dev.gatehouse.gateway.credentials;

import java.time.Instant;
import java.util.Optional;

/**
 * Sealed service credentials in the shared store, one per service, for every replica (PostgreSQL,
 * {@code dev.gatehouse.gateway.store}; a replica reads through its cache, so a replacement applies on every replica
 * at the next call after the store announced it, and at the latest {@code gatehouse.database.cache-ttl} after it).
 * Every method may throw {@link dev.gatehouse.gateway.store.StoreUnavailableException}.
 */
public interface StoredCredentials {

    /** The stored credential of {@code service} (cached per replica, for every facade call). */
    Optional<Stored> find(String service);

    /** Replaces the credential of {@code service}; returns the new version (1 for the first). */
    long put(String service, Sealed sealed);

    /** Removes it; returns the version removed, empty when there was none. */
    Optional<Long> remove(String service);

    /**
     * @param sealed    the sealed credential
     * @param version   1 for the first, +1 per replacement
     * @param updatedAt when it was stored
     */
    record Stored(Sealed sealed, long version, Instant updatedAt) {
    }
}
