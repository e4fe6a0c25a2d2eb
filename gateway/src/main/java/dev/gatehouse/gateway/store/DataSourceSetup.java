package dev.gatehouse.gateway.store;

import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Points the default data source at the shared store before the pool is built: the embedded server (started here on
 * first use) or the external URL, user and password file of {@link DatabaseProperties}. Pool limits stay in
 * application.yml ({@code datasources.default.*}).
 */
@Singleton
class DataSourceSetup implements BeanCreatedEventListener<DatasourceConfiguration> {

    private final DatabaseProperties properties;

    DataSourceSetup(DatabaseProperties properties) {
        this.properties = properties;
    }

    @Override
    public DatasourceConfiguration onCreated(BeanCreatedEvent<DatasourceConfiguration> event) {
        DatasourceConfiguration config = event.getBean();
        if (properties.isEmbedded()) {
            EmbeddedPostgres server = EmbeddedPostgresServer.start(properties.getDataDir(),
                    properties.getEmbeddedPort());
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
        return config;
    }

    private static String randomSuffix() {
        byte[] bytes = new byte[8];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
