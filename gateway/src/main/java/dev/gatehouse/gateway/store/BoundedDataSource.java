package dev.gatehouse.gateway.store;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The shared store as a {@link DataSource}, for a library that runs its own statements (Bucket4j's PostgreSQL
 * buckets): every connection it gets is bounded like a store call of {@link Database} (the request's store budget,
 * socket timeout for every read), so a stalled server holds its caller no longer than any other store call. A
 * connection that cannot be had in time is an {@link SQLException} here, as the library expects.
 */
public final class BoundedDataSource implements DataSource {

    private final Database database;

    public BoundedDataSource(Database database) {
        this.database = database;
    }

    @Override
    public Connection getConnection() throws SQLException {
        try {
            return database.boundedConnection();
        } catch (StoreUnavailableException e) {
            throw new SQLException(e.getMessage(), e);
        }
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the shared store's credentials are its pool's own");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // Nothing is logged through the JDBC log writer.
    }

    @Override
    public void setLoginTimeout(int seconds) {
        // Bounded per connection by the store deadline instead.
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no java.util.logging");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }
}
