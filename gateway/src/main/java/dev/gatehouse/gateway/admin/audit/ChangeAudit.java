package dev.gatehouse.gateway.admin.audit;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The audit of admin changes, kept in the shared store (PostgreSQL, {@code dev.gatehouse.gateway.store}). Every write
 * of the admin services goes through {@link #write}, so the change and its entry commit together or not at all: a
 * change without an entry, or an entry for a change that did not happen, cannot be.
 *
 * <p>Every method may throw {@link dev.gatehouse.gateway.store.StoreUnavailableException}; then nothing was written.
 */
public interface ChangeAudit {

    /**
     * Runs {@code write} in one transaction of the shared store and adds the entry it names, if any.
     *
     * @param actor who asks for the change
     * @param write the store writes; returns its result and the change it made (empty: nothing changed, no entry)
     * @return the write's result
     */
    <T> T write(Actor actor, Supplier<Written<T>> write);

    /** Entries newest first, as the query says. */
    List<AuditEntry> entries(AuditQuery query);

    /**
     * What a write returns to {@link #write}.
     *
     * @param result what the caller gets back
     * @param change what changed, if anything
     */
    record Written<T>(T result, Optional<Change> change) {

        public static <T> Written<T> changed(T result, Change change) {
            return new Written<>(result, Optional.of(change));
        }

        public static <T> Written<T> unchanged(T result) {
            return new Written<>(result, Optional.empty());
        }
    }
}
