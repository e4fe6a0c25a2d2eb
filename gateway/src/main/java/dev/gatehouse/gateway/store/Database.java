package dev.gatehouse.gateway.store;

import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one way the stores reach PostgreSQL: one plain SQL statement per call, through Micronaut Data's
 * {@link JdbcOperations} on the Hikari pool (a connection per statement, auto-commit). Any failure becomes a
 * {@link StoreUnavailableException}. A new table needs a migration under {@code db/migration} and a store class that
 * uses {@link #query}, {@link #one} and {@link #update}; nothing here knows the tables. {@link #inTransaction} runs
 * several of them on one connection in one transaction (an admin change and its audit entry).
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

    private final JdbcOperations jdbc;
    private final TransactionOperations<Connection> transactions;

    public Database(JdbcOperations jdbc, TransactionOperations<Connection> transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /**
     * Runs {@code work} in one transaction: every statement it runs through this class uses the same connection, and
     * all of them commit when it returns or none when it throws (its exception is rethrown; a failure of the store
     * itself is a {@link StoreUnavailableException}).
     */
    public <T> T inTransaction(Supplier<T> work) {
        try {
            return transactions.executeWrite(status -> work.get());
        } catch (StoreUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            if (e.getClass().getName().startsWith("io.micronaut.transaction")
                    || e.getClass().getName().startsWith("io.micronaut.data")) {
                throw new StoreUnavailableException("the shared store did not commit (" + e.getClass().getSimpleName()
                        + sqlState(e).map(state -> ", SQLState " + state).orElse("") + ")", e);
            }
            throw e;
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
        try {
            return jdbc.execute(connection -> {
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
