package dev.gatehouse.gateway.store;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.sql.Connection;
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
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The one way the stores reach PostgreSQL: one plain SQL statement per call on a connection of the Hikari pool
 * (auto-commit). Any failure becomes a {@link StoreUnavailableException}. A new table needs a migration under
 * {@code db/migration} and a store class that uses {@link #query}, {@link #one} and {@link #update}; nothing here knows
 * the tables. {@link #inTransaction} runs several of them on one connection in one transaction (an admin change and
 * its audit entry), under the same deadline.
 *
 * <p><b>Deadline.</b> A store call ends within {@code gatehouse.database.deadline} (default 2 s), whatever PostgreSQL
 * does, and so do all the store calls of one request together: a request's budget is opened when it arrives
 * ({@link #requestBudget}) and each call gets what is left of it (a call outside any request, such as the notice
 * consumer's, gets the deadline). The wait for a pooled connection is bounded by what is left, less the
 * {@value DataSourceSetup#VALIDATION_MILLIS} ms the pool may spend checking one; the statement gets the rest as the
 * connection's socket timeout for every read of its answer. A server that stops answering (stalled, frozen, cut off)
 * ends the call as unavailable at the deadline; the driver closes that connection and the pool replaces it, so the
 * pool recovers by itself when the server answers again. A write that timed out may still commit (whole: every write
 * is one statement) once the server resumes; the callers' writes are idempotent or versioned for that reason.
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

    /** The store budget of the request a thread serves; closing it ends the budget. */
    public interface Budget extends AutoCloseable {
        @Override
        void close();
    }

    /** When the budget of the request this thread serves runs out (the clock's nanoseconds); unset outside one. */
    private static final ThreadLocal<Long> REQUEST_ENDS = new ThreadLocal<>();
    /** Socket timeouts are set on the calling thread (the driver ignores the executor). */
    private static final Executor ON_CALLER = Runnable::run;
    /** The connection of the transaction this thread runs in ({@link #inTransaction}); unset outside one. */
    private static final ThreadLocal<Connection> TRANSACTION = new ThreadLocal<>();
    /** SQLState class 22: the statement's data was refused (e.g. 22021, U+0000 in a text). */
    private static final String DATA_EXCEPTION = "22";
    /** SQLState 23505: a unique index already holds the key. */
    static final String UNIQUE_VIOLATION = "23505";

    private final HikariPool pool;
    private final long deadlineNanos;
    private final LongSupplier nanoClock;

    @Inject
    public Database(DataSource dataSource, DatabaseProperties properties) {
        this((HikariDataSource) DelegatingDataSource.unwrapDataSource(dataSource), properties.getDeadline(),
                System::nanoTime);
    }

    /** With the monotonic clock (nanoseconds) deadlines are measured on. */
    Database(HikariDataSource dataSource, Duration deadline, LongSupplier nanoClock) {
        // The pool itself, for a connection wait bounded per call; the data source's wait is one fixed length.
        this.pool = (HikariPool) dataSource.getHikariPoolMXBean();
        this.deadlineNanos = deadline.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * Opens the store budget of the request this thread starts serving now: every store call it makes until the
     * budget is closed shares one deadline. Inside a budget already open this changes nothing (the outer one holds).
     */
    public Budget requestBudget() {
        if (REQUEST_ENDS.get() != null) {
            return () -> {
            };
        }
        REQUEST_ENDS.set(nanoClock.getAsLong() + deadlineNanos);
        return REQUEST_ENDS::remove;
    }

    /**
     * Runs {@code work} in one transaction: every statement it runs through this class uses the same connection, under
     * one deadline (as one call), and all of them commit when it returns or none when it throws (its exception is
     * rethrown; a failure of the store itself is a {@link StoreUnavailableException}, a value it refuses a
     * {@link StoreRefusedValueException}, a key a unique index already holds a {@link StoreDuplicateKeyException}).
     * Inside a transaction already open, {@code work} simply joins it.
     */
    public <T> T inTransaction(Supplier<T> work) {
        if (TRANSACTION.get() != null) {
            return work.get();
        }
        Connection connection = connection(end());
        try (connection) {
            connection.setAutoCommit(false);
            TRANSACTION.set(connection);
            T result;
            try {
                result = work.get();
            } catch (RuntimeException e) {
                connection.rollback();
                throw e;
            }
            connection.commit();
            return result;
        } catch (SQLException e) {
            throw failure(e);
        } finally {
            TRANSACTION.remove();
        }
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

    /**
     * A pooled connection for a library that runs its own statements (the quota buckets, {@link BoundedDataSource}),
     * under the same deadline as a store call made now: the request's budget when this thread serves one. The caller
     * closes it, which hands it back to the pool with its settings restored.
     *
     * @throws StoreUnavailableException when no connection could be had in time; {@link RequestTimeSpentException}
     *         when the request's budget was spent before this call began
     */
    public Connection boundedConnection() {
        return connection(end());
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
        Connection transaction = TRANSACTION.get();
        if (transaction != null) {
            try (PreparedStatement statement = transaction.prepareStatement(sql)) {
                return work.apply(statement);
            } catch (SQLException | RuntimeException e) {
                throw failure(e);
            }
        }
        try (Connection connection = connection(end());
                PreparedStatement statement = connection.prepareStatement(sql)) {
            return work.apply(statement);
        } catch (SQLException | RuntimeException e) {
            throw failure(e);
        }
    }

    /** When a call starting now must end: the deadline, or the request's budget when that ends first. */
    private long end() {
        long end = nanoClock.getAsLong() + deadlineNanos;
        Long requestEnds = REQUEST_ENDS.get();
        return requestEnds != null && requestEnds - end < 0 ? requestEnds : end;
    }

    /** A pooled connection whose every read ends by {@code end}; the pool restores its socket timeout on return. */
    private Connection connection(long end) {
        try {
            long wait = TimeUnit.NANOSECONDS.toMillis(end - nanoClock.getAsLong()) - DataSourceSetup.VALIDATION_MILLIS;
            if (wait <= 0) {
                throw new RequestTimeSpentException();
            }
            Connection connection = pool.getConnection(wait);
            long left = TimeUnit.NANOSECONDS.toMillis(end - nanoClock.getAsLong());
            if (left <= 0) {
                connection.close();
                throw new SQLTimeoutException("the deadline passed while waiting for a connection");
            }
            connection.setNetworkTimeout(ON_CALLER, (int) left);
            return connection;
        } catch (SQLException | RuntimeException e) {
            throw failure(e);
        }
    }

    /**
     * A store failure; the SQLState says what failed, while driver messages may quote row values, so none here. A data
     * exception (class 22) is the request's value, not the store: {@link StoreRefusedValueException}; so is a key a
     * unique index already holds (23505): {@link StoreDuplicateKeyException}.
     */
    private static RuntimeException failure(Exception e) {
        if (e instanceof StoreUnavailableException || e instanceof StoreRefusedValueException
                || e instanceof StoreDuplicateKeyException) {
            return (RuntimeException) e;
        }
        Optional<String> state = sqlState(e);
        if (state.isPresent() && state.get().startsWith(DATA_EXCEPTION)) {
            return new StoreRefusedValueException(state.get(), e);
        }
        if (state.equals(Optional.of(UNIQUE_VIOLATION))) {
            return new StoreDuplicateKeyException(e);
        }
        return new StoreUnavailableException("the shared store did not answer (" + e.getClass().getSimpleName()
                + state.map(code -> ", SQLState " + code).orElse("") + ")", e);
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
