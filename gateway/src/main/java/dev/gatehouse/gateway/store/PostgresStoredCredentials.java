package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.credentials.Sealed;
import dev.gatehouse.gateway.credentials.StoredCredentials;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * {@link StoredCredentials} on the {@code service_credential} table (migration V8). Each write is one statement; a
 * lookup is answered from this replica's cache ({@link StoreChanges}) until the table's change notification or the
 * cache's time-to-live.
 */
@Singleton
public class PostgresStoredCredentials implements StoredCredentials {

    private final Database database;
    private final StoreCache<Optional<Stored>> cache;

    public PostgresStoredCredentials(Database database, StoreChanges changes) {
        this.database = database;
        this.cache = changes.cache("service_credential");
    }

    @Override
    public Optional<Stored> find(String service) {
        return cache.get(service, () -> StoreCache.Loaded.keep(database.one(
                "SELECT key_id, nonce, ciphertext, version, updated_at FROM service_credential WHERE service = ?",
                statement -> statement.setString(1, service), PostgresStoredCredentials::stored)));
    }

    @Override
    public long put(String service, Sealed sealed) {
        long version = database.one("INSERT INTO service_credential (service, key_id, nonce, ciphertext, version,"
                + " updated_at) VALUES (?, ?, ?, ?, 1, now()) ON CONFLICT (service) DO UPDATE SET"
                + " key_id = EXCLUDED.key_id, nonce = EXCLUDED.nonce, ciphertext = EXCLUDED.ciphertext,"
                + " version = service_credential.version + 1, updated_at = now() RETURNING version", statement -> {
                    statement.setString(1, service);
                    statement.setString(2, sealed.keyId());
                    statement.setBytes(3, sealed.nonce());
                    statement.setBytes(4, sealed.ciphertext());
                }, row -> row.getLong(1)).orElseThrow();
        cache.invalidate(service); // this replica at once; the others by the notification
        return version;
    }

    @Override
    public Optional<Long> remove(String service) {
        Optional<Long> removed = database.one("DELETE FROM service_credential WHERE service = ? RETURNING version",
                statement -> statement.setString(1, service), row -> row.getLong(1));
        cache.invalidate(service);
        return removed;
    }

    private static Stored stored(ResultSet row) throws SQLException {
        return new Stored(new Sealed(row.getString("key_id"), row.getBytes("nonce"), row.getBytes("ciphertext")),
                row.getLong("version"), row.getTimestamp("updated_at").toInstant());
    }
}
