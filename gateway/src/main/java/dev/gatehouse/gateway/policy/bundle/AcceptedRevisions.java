package dev.gatehouse.gateway.policy.bundle;

import java.time.Instant;
import java.util.Optional;

/**
 * The newest signing time ({@code iat}) of any policy revision this deployment ever accepted: the floor below which a
 * revision is a rollback (docs/design.md, "Bundles and revisions"). Kept where every replica and every restart reads
 * the same floor (PostgreSQL in the gateway), so an older, weaker bundle is refused whoever offers it and wherever.
 *
 * <p>Both methods may throw a {@link RuntimeException} when the store does not answer; the caller then refuses to
 * activate anything for now (it cannot prove the offer is not a rollback) and offers it again later.
 */
public interface AcceptedRevisions {

    /** The signing time of the newest revision ever accepted; empty before the first. */
    Optional<Instant> newest();

    /**
     * Records {@code signedAt} as the newest accepted, atomically, unless a newer one is recorded already.
     *
     * @param signedAt the revision's {@code iat} (whole seconds)
     * @param revision the manifest revision, for the record
     * @return true when recorded ({@code signedAt} is at least the newest ever accepted); false when it is older
     */
    boolean accept(Instant signedAt, String revision);

    /** A floor kept in this process only: for engines used without the shared store (benchmarks, engine tests). */
    static AcceptedRevisions inMemory() {
        return new AcceptedRevisions() {
            private Instant newest;

            @Override
            public synchronized Optional<Instant> newest() {
                return Optional.ofNullable(newest);
            }

            @Override
            public synchronized boolean accept(Instant signedAt, String revision) {
                if (newest != null && signedAt.isBefore(newest)) {
                    return false;
                }
                newest = signedAt;
                return true;
            }
        };
    }
}
