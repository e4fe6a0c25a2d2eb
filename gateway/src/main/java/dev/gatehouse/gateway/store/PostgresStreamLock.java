package dev.gatehouse.gateway.store;

import com.zaxxer.hikari.HikariDataSource;
import dev.gatehouse.gateway.notice.NoticeProperties;
import dev.gatehouse.gateway.notice.StreamLock;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executor;
import javax.sql.DataSource;
import org.postgresql.PGProperty;

/**
 * {@link StreamLock} as a PostgreSQL session-level advisory lock ({@code pg_try_advisory_lock(}{@value #LOCK_SPACE}
 * {@code , }{@value #NOTICE_STREAMS}{@code )}) held on a connection of its own, outside the pool: PostgreSQL frees
 * it only when that session ends, which is when the holder's process dies (its kernel closes the socket) or the
 * holder closes it; never because time passed. The session's {@code application_name} is
 * {@value #APPLICATION}{@code <replica name>}, which is how any replica names the holder ({@code pg_locks} joined with
 * {@code pg_stat_activity}). Every round trip is bounded by {@code gatehouse.database.deadline}: the connection is
 * opened with connect, login and socket timeouts of that length, so a stalled store fails a round trip instead of
 * holding the caller.
 */
@Singleton
public class PostgresStreamLock implements StreamLock {

    /** The first key of the gateway's advisory locks: "gate" in ASCII. */
    static final int LOCK_SPACE = 0x67617465;
    /** The second key: the notice streams. */
    static final int NOTICE_STREAMS = 1;
    /** Prefix of the holding session's {@code application_name}. */
    static final String APPLICATION = "gatehouse-notices ";

    private static final Executor ON_CALLER = Runnable::run;
    // Two-key advisory locks show the keys as classid and objid, with objsubid 2.
    private static final String OURS = "l.locktype = 'advisory' AND l.classid = ?::oid AND l.objid = ?::oid"
            + " AND l.objsubid = 2 AND l.granted";

    private final String url;
    private final Properties connectionProperties;
    private final int deadlineMillis;
    private Connection connection;
    private boolean held;

    @Inject
    public PostgresStreamLock(DataSource dataSource, DatabaseProperties database, NoticeProperties notices) {
        this((HikariDataSource) DelegatingDataSource.unwrapDataSource(dataSource), database, notices.getReplicaName());
    }

    /** A lock client for {@code replica}, connecting as the pool does (tests make two replicas in one process). */
    PostgresStreamLock(HikariDataSource pool, DatabaseProperties database, String replica) {
        this.url = pool.getJdbcUrl();
        this.deadlineMillis = (int) database.getDeadline().toMillis();
        Properties properties = new Properties();
        properties.putAll(pool.getDataSourceProperties());
        DataSourceSetup.asStrings(properties);
        if (pool.getUsername() != null) {
            properties.setProperty(PGProperty.USER.getName(), pool.getUsername());
        }
        if (pool.getPassword() != null) {
            properties.setProperty(PGProperty.PASSWORD.getName(), pool.getPassword());
        }
        String seconds = Integer.toString(Math.max(1, (deadlineMillis + 999) / 1000));
        properties.setProperty(PGProperty.CONNECT_TIMEOUT.getName(), seconds);
        properties.setProperty(PGProperty.LOGIN_TIMEOUT.getName(), seconds);
        properties.setProperty(PGProperty.SOCKET_TIMEOUT.getName(), seconds);
        properties.setProperty(PGProperty.APPLICATION_NAME.getName(), APPLICATION + replica);
        this.connectionProperties = properties;
    }

    @Override
    public synchronized boolean tryTake() {
        if (held) {
            return confirm();
        }
        try {
            held = one("SELECT pg_try_advisory_lock(?, ?)", true, row -> row.getBoolean(1));
            return held;
        } catch (SQLException e) {
            close();
            throw unavailable(e);
        }
    }

    @Override
    public synchronized boolean confirm() {
        if (!held) {
            return false;
        }
        try {
            held = one("SELECT count(*) FROM pg_locks l WHERE l.pid = pg_backend_pid() AND " + OURS, false,
                    row -> row.getLong(1)) > 0;
        } catch (SQLException e) {
            held = false;
        }
        if (!held) {
            close();
        }
        return held;
    }

    @Override
    public synchronized Optional<String> holder() {
        try {
            String name = one("SELECT coalesce(max(a.application_name), '') FROM pg_locks l"
                    + " JOIN pg_stat_activity a ON a.pid = l.pid WHERE " + OURS
                    + " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())", true,
                    row -> row.getString(1));
            return name.startsWith(APPLICATION) ? Optional.of(name.substring(APPLICATION.length()))
                    : Optional.empty();
        } catch (SQLException e) {
            if (!held) {
                close();
            }
            throw unavailable(e);
        }
    }

    @Override
    @PreDestroy
    public synchronized void release() {
        if (held) {
            try {
                // Frees it now; closing alone frees it only once the server has noticed the session's end.
                one("SELECT pg_advisory_unlock(?, ?)", false, row -> row.getBoolean(1));
            } catch (SQLException e) {
                // the session's end frees it
            }
        }
        close();
    }

    /**
     * The one row of a query with the two lock keys as its parameters, on the lock's connection (opened first when
     * {@code open} and there is none).
     */
    private <T> T one(String sql, boolean open, Database.RowMapper<T> mapper) throws SQLException {
        if (connection == null) {
            if (!open) {
                throw new SQLException("the lock's connection is closed");
            }
            connection = DriverManager.getConnection(url, connectionProperties);
            connection.setNetworkTimeout(ON_CALLER, deadlineMillis);
        }
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setInt(1, LOCK_SPACE);
            statement.setInt(2, NOTICE_STREAMS);
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("no row from the lock query");
                }
                return mapper.map(row);
            }
        }
    }

    private void close() {
        held = false;
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the session is gone either way
            }
            connection = null;
        }
    }

    private static StoreUnavailableException unavailable(SQLException e) {
        return new StoreUnavailableException("the notice stream lock did not answer (SQLState " + e.getSQLState() + ")",
                e);
    }
}
