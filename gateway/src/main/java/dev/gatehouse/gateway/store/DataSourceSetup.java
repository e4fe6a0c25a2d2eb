package dev.gatehouse.gateway.store;

import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import io.micronaut.context.BeanContext;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Points the default data source at the shared store before the pool is built: the embedded server (started here on
 * first use) or the external URL, user and password file of {@link DatabaseProperties}. Pool sizes and the driver's
 * own properties stay in application.yml ({@code datasources.default.*}); what bounds a store call is set here from
 * {@code gatehouse.database.deadline}, so the two cannot disagree:
 * <ul>
 * <li>waiting for a connection ({@code connectionTimeout}) gets the deadline less {@link #VALIDATION}, and a pooled
 * connection idle for a while is checked with {@code SELECT 1} under a {@value #VALIDATION_MILLIS} ms socket timeout
 * (the driver's own {@code isValid} rounds its timeout up to whole seconds); so getting a connection ends within the
 * deadline, and {@link Database} gives the statement what is left of it;</li>
 * <li>the driver's properties ({@code data-source-properties}: {@code connectTimeout}, {@code socketTimeout},
 * {@code tcpKeepAlive}…) are handed to PostgreSQL's driver as strings. Configuration binds YAML numbers and booleans
 * as {@code Integer} and {@code Boolean}, the pool copies them into a {@link Properties}, and the driver reads each
 * with {@link Properties#getProperty(String)}, which ignores any value that is not a {@code String}: every such
 * setting was silently dropped, so a stalled server held a statement for as long as it stalled.</li>
 * </ul>
 */
@Singleton
class DataSourceSetup implements BeanCreatedEventListener<DatasourceConfiguration> {

    /** How long checking an idle pooled connection may take (the pool's minimum). */
    static final long VALIDATION_MILLIS = 250;
    static final Duration VALIDATION = Duration.ofMillis(VALIDATION_MILLIS);

    private final DatabaseProperties properties;
    private final BeanContext context;

    DataSourceSetup(DatabaseProperties properties, BeanContext context) {
        this.properties = properties;
        this.context = context;
    }

    @Override
    public DatasourceConfiguration onCreated(BeanCreatedEvent<DatasourceConfiguration> event) {
        DatasourceConfiguration config = event.getBean();
        if (properties.isEmbedded()) {
            EmbeddedPostgres server = EmbeddedPostgresServer.start(properties.getDataDir(),
                    properties.getEmbeddedPort());
            EmbeddedPostgresServer.usedBy(context);
            String database = properties.isFreshDatabase() ? "test_" + randomSuffix()
                    : properties.getEmbeddedDatabase();
            EmbeddedPostgresServer.ensureDatabase(server, database);
            config.setUrl("jdbc:postgresql://127.0.0.1:" + server.getPort() + "/" + database);
            config.setUsername("postgres");
            config.setPassword("");
        } else {
            config.setUrl(properties.getUrl().orElseThrow(() -> new IllegalStateException(
                    "gatehouse.database.embedded is false but GATEHOUSE_DATABASE_URL is not set")));
            properties.getUser().ifPresent(config::setUsername);
            properties.getPasswordFile().ifPresent(file -> {
                try {
                    config.setPassword(Files.readString(file, StandardCharsets.UTF_8).strip());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read GATEHOUSE_DATABASE_PASSWORD_FILE " + file, e);
                }
            });
        }
        config.setDriverClassName("org.postgresql.Driver");
        config.setValidationTimeout(VALIDATION_MILLIS);
        config.setConnectionTestQuery("SELECT 1");
        config.setConnectionTimeout(properties.getDeadline().minus(VALIDATION).toMillis());
        asStrings(config.getDataSourceProperties());
        return config;
    }

    /** Replaces every value by its string form, the only form the driver reads. */
    static void asStrings(Properties driverProperties) {
        for (Map.Entry<Object, Object> property : List.copyOf(driverProperties.entrySet())) {
            driverProperties.setProperty(property.getKey().toString(), String.valueOf(property.getValue()));
        }
    }

    private static String randomSuffix() {
        byte[] bytes = new byte[8];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
