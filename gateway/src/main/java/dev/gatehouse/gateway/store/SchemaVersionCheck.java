package dev.gatehouse.gateway.store;

import io.micronaut.context.annotation.Context;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs at start-up, after Flyway has applied {@code db/migration} (it runs when the data source is created): the
 * gateway starts only on a schema it knows. A database migrated by a newer gateway (a higher version in
 * {@code flyway_schema_history}) stops start-up with a clear message instead of running old code on a new schema;
 * Flyway by itself would only warn about such "future" migrations.
 */
@Context
public class SchemaVersionCheck {

    /** The highest migration this code ships ({@code db/migration/V<n>__*.sql}). */
    public static final int SCHEMA_VERSION = 15;

    private static final Logger LOG = LoggerFactory.getLogger(SchemaVersionCheck.class);

    public SchemaVersionCheck(Database database) {
        Optional<Integer> found = database.one(
                "SELECT coalesce(max(CAST(version AS INTEGER)), 0) FROM flyway_schema_history"
                        + " WHERE success AND version IS NOT NULL",
                statement -> {
                }, row -> row.getInt(1));
        int version = found.orElse(0);
        if (version > SCHEMA_VERSION) {
            throw new IllegalStateException("the database schema is at version " + version
                    + ", newer than this gateway's " + SCHEMA_VERSION
                    + "; run a gateway release that knows it (a schema is never migrated down)");
        }
        if (version < SCHEMA_VERSION) {
            throw new IllegalStateException("the database schema is at version " + version + ", expected "
                    + SCHEMA_VERSION + "; Flyway did not migrate it (flyway.datasources.default.enabled)");
        }
        LOG.info("shared store schema version {}", version);
    }
}
