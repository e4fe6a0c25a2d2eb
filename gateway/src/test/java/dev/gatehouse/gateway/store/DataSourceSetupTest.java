package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.zaxxer.hikari.HikariDataSource;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.PGProperty;

/**
 * The pool and the driver get the settings that bound a store call. The driver's properties used to be dropped
 * silently: configuration binds YAML numbers and booleans as {@code Integer} and {@code Boolean}, and PostgreSQL's
 * driver reads properties with {@link Properties#getProperty(String)}, which sees only {@code String} values, so
 * {@code socketTimeout: 5} left every connection without a socket timeout.
 */
class DataSourceSetupTest {

    @Test
    void everyValueTypeConfigurationProducesReachesTheDriver() {
        Map<String, Object> configured = new LinkedHashMap<>();
        configured.put(PGProperty.SOCKET_TIMEOUT.getName(), 5);
        configured.put(PGProperty.CONNECT_TIMEOUT.getName(), 2L);
        configured.put(PGProperty.TCP_KEEP_ALIVE.getName(), true);
        configured.put(PGProperty.LOGIN_TIMEOUT.getName(), 1.5);
        configured.put(PGProperty.APPLICATION_NAME.getName(), "gatehouse");
        for (Map.Entry<String, Object> property : configured.entrySet()) {
            Properties driver = new Properties();
            driver.putAll(Map.of(property.getKey(), property.getValue()));
            if (!(property.getValue() instanceof String)) {
                assertNull(driver.getProperty(property.getKey()), "the fault: a " + property.getValue().getClass()
                        .getSimpleName() + " value is invisible to the driver");
            }
            DataSourceSetup.asStrings(driver);
            assertEquals(String.valueOf(property.getValue()),
                    PGProperty.forName(property.getKey()).getOrDefault(driver), property.getKey());
        }
    }

    @Test
    void pooledConnectionsCarryTheConfiguredSocketTimeoutAndThePoolWaitsWithinTheDeadline() throws Exception {
        for (String deadline : List.of("2s", "500ms", "5s")) {
            try (ApplicationContext context = ApplicationContext.run(Map.of("micronaut.server.port", "-1",
                    "gatehouse.database.deadline", deadline,
                    "gatehouse.policy.bundle-path", "../target/bundle/bundle.tar.gz",
                    "gatehouse.audit.path", "target/test-decisions/datasource.jsonl"), "test")) {
                HikariDataSource pool = (HikariDataSource) DelegatingDataSource.unwrapDataSource(
                        context.getBean(DataSource.class));
                long deadlineMillis = context.getBean(DatabaseProperties.class).getDeadline().toMillis();
                assertEquals(deadlineMillis - DataSourceSetup.VALIDATION_MILLIS, pool.getConnectionTimeout(), deadline);
                assertEquals(DataSourceSetup.VALIDATION_MILLIS, pool.getValidationTimeout());
                try (Connection connection = pool.getConnection()) {
                    // application.yml: socketTimeout: 30 (seconds); the driver reports it in milliseconds.
                    assertEquals(30_000, connection.getNetworkTimeout(), "the driver took socketTimeout");
                }
            }
        }
    }
}
