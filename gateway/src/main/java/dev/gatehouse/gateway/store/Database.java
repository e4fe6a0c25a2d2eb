package dev.gatehouse.gateway.store;

import io.micronaut.data.jdbc.runtime.JdbcOperations;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The one way the stores reach PostgreSQL: one plain SQL statement per call, through Micronaut Data's
 * {@link JdbcOperations} on the Hikari pool (a connection per statement, auto-commit). Any failure becomes a
 * {@link StoreUnavailableException}. A new table needs a migration under {@code db/migration} and a store class that
 * uses {@link #query}, {@link #one} and {@link #update}; nothing here knows the tables.
 *
 * <p><b>Deadline.</b> Each call ends within {@code gatehouse.database.deadline} (default 2 s), whatever PostgreSQL
 * does: getting the connection is bounded by the pool ({@link DataSourceSetup}), and the statement gets what is left,
 * as the connection's socket timeout (milliseconds) for every read of its answer. A server that stops answering
 * (stalled, frozen, cut off) ends the call as unavailable at the deadline; the driver closes that connection and the
 * pool replaces it, so the pool recovers by itself when the server answers again. A write that timed out may still
 * commit (whole: every write is one statement) once the server resumes; the callers' writes are idempotent or
 * versioned for that reason.
 */
@Singleton
public class Database {

    /** Binds the statement's parameters. */
    @FunctionalInterface
    public interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Reads one row. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    /** Socket timeouts are set on the calling thread (the driver ignores the executor). */
    private static final Executor ON_CALLER = Runnable::run;

    private final JdbcOperations jdbc;
    private final long deadlineNanos;
    private final LongSupplier nanoClock;

    @Inject
    public Database(JdbcOperations jdbc, DatabaseProperties properties) {
        this(jdbc, properties.getDeadline(), System::nanoTime);
    }

    /** With the monotonic clock (nanoseconds) the deadline is measured on. */
    Database(JdbcOperations jdbc, Duration deadline, LongSupplier nanoClock) {
        this.jdbc = jdbc;
        this.deadlineNanos = deadline.toNanos();
        this.nanoClock = nanoClock;
    }

    /** All rows of a query. */
    public <T> List<T> query(String sql, Binder binder, RowMapper<T> mapper) {
        return run(sql, statement -> {
            binder.bind(statement);
            List<T> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    rows.add(mapper.map(result));
                }
            }
            return rows;
        });
    }

    /** The first row of a query (or of an {@code UPDATE … RETURNING}), if any. */
    public <T> Optional<T> one(String sql, Binder binder, RowMapper<T> mapper) {
        return run(sql, statement -> {
            binder.bind(statement);
            try (ResultSet result = statement.executeQuery()) {
                return result.next() ? Optional.of(mapper.map(result)) : Optional.<T>empty();
            }
        });
    }

    /** Rows changed by one statement. */
    public int update(String sql, Binder binder) {
        return run(sql, statement -> {
            binder.bind(statement);
            return statement.executeUpdate();
        });
    }

    /** True when the store answers a trivial query now. */
    public boolean ping() {
        try {
            return one("SELECT 1", statement -> {
            }, row -> row.getInt(1)).isPresent();
        } catch (StoreUnavailableException e) {
            return false;
        }
    }

    @FunctionalInterface
    private interface Work<T> {
        T apply(PreparedStatement statement) throws SQLException;
    }

    private <T> T run(String sql, Work<T> work) {
        long start = nanoClock.getAsLong();
        try {
            return jdbc.execute(connection -> {
                long left = deadlineNanos - (nanoClock.getAsLong() - start);
                if (left <= 0) {
                    throw new SQLTimeoutException("the deadline passed while waiting for a connection");
                }
                // The pool puts the connection's own socket timeout back when it is returned.
                connection.setNetworkTimeout(ON_CALLER, (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    return work.apply(statement);
                }
            });
        } catch (RuntimeException e) {
            // The SQLState says what failed; driver messages may quote row values, so they are not repeated here.
            throw new StoreUnavailableException("the shared store did not answer (" + e.getClass().getSimpleName()
                    + sqlState(e).map(state -> ", SQLState " + state).orElse("") + ")", e);
        }
    }

    private static Optional<String> sqlState(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return Optional.of(sql.getSQLState());
            }
        }
        return Optional.empty();
    }
}
