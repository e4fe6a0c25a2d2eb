package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.policy.bundle.AcceptedRevisions;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Optional;

/**
 * {@link AcceptedRevisions} in PostgreSQL (migration V9, table {@code accepted_bundle_revision}): one row, raised in
 * one statement that never lowers it, so two replicas accepting at once keep the newer.
 */
@Singleton
public class PostgresAcceptedRevisions implements AcceptedRevisions {

    private final Database database;

    public PostgresAcceptedRevisions(Database database) {
        this.database = database;
    }

    /** @throws StoreUnavailableException when PostgreSQL does not answer */
    @Override
    public Optional<Instant> newest() {
        return database.one("SELECT signed_at FROM accepted_bundle_revision WHERE id = 1", statement -> {
        }, row -> Instant.ofEpochSecond(row.getLong(1)));
    }

    /** @throws StoreUnavailableException when PostgreSQL does not answer */
    @Override
    public boolean accept(Instant signedAt, String revision) {
        return database.update("INSERT INTO accepted_bundle_revision (id, signed_at, revision) VALUES (1, ?, ?) "
                + "ON CONFLICT (id) DO UPDATE SET signed_at = EXCLUDED.signed_at, revision = EXCLUDED.revision, "
                + "accepted_at = now() WHERE accepted_bundle_revision.signed_at <= EXCLUDED.signed_at", statement -> {
                    statement.setLong(1, signedAt.getEpochSecond());
                    statement.setString(2, revision);
                }) == 1;
    }
}
