package dev.gatehouse.gateway.store;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * For tests outside this package: stops the embedded PostgreSQL a gateway context started, or gives a
 * {@link Database} over a context's pool whose deadlines run on a clock of the test's own.
 */
public final class EmbeddedStores {

    private EmbeddedStores() {
    }

    /** Stops the server of {@code dataDir}, as an outage the context's own pool then sees. */
    public static void stop(Path dataDir) throws IOException {
        EmbeddedPostgresServer.start(dataDir, 0).close();
    }

    /** A store over {@code pool} whose request budgets ({@code deadline} each) are measured on {@code nanoClock}. */
    public static Database database(HikariDataSource pool, Duration deadline, LongSupplier nanoClock) {
        return new Database(pool, deadline, nanoClock);
    }
}
