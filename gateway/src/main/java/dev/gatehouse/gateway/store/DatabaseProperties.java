package dev.gatehouse.gateway.store;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the shared store lives ({@code gatehouse.database.*}).
 * <ul>
 * <li>external: {@code url} ({@code GATEHOUSE_DATABASE_URL}, a {@code jdbc:postgresql://} URL), {@code user}
 * ({@code GATEHOUSE_DATABASE_USER}) and {@code password-file} ({@code GATEHOUSE_DATABASE_PASSWORD_FILE}, read once at
 * start-up, never logged): a managed PostgreSQL that several replicas share;</li>
 * <li>embedded (the default when no URL is set; {@code gatehouse.database.embedded}): a real PostgreSQL the gateway
 * starts in-process on 127.0.0.1, its data under {@code data-dir} ({@code <GATEHOUSE_DATA_DIR>/postgres}), kept
 * across restarts.</li>
 * </ul>
 */
@ConfigurationProperties(DatabaseProperties.PREFIX)
public class DatabaseProperties {

    public static final String PREFIX = "gatehouse.database";

    private Optional<Boolean> embedded = Optional.empty();
    private Optional<String> url = Optional.empty();
    private Optional<String> user = Optional.empty();
    private Optional<Path> passwordFile = Optional.empty();
    private Path dataDir = Path.of(".gatehouse-data", "postgres");
    private int embeddedPort;
    private String embeddedDatabase = "gatehouse";
    private boolean freshDatabase;

    /** Embedded when set to true, or when unset and no URL is given. */
    public boolean isEmbedded() {
        return embedded.orElse(url.isEmpty());
    }

    public void setEmbedded(Optional<Boolean> embedded) {
        this.embedded = embedded;
    }

    public Optional<String> getUrl() {
        return url;
    }

    public void setUrl(Optional<String> url) {
        this.url = url.filter(u -> !u.isBlank());
    }

    public Optional<String> getUser() {
        return user;
    }

    public void setUser(Optional<String> user) {
        this.user = user.filter(u -> !u.isBlank());
    }

    public Optional<Path> getPasswordFile() {
        return passwordFile;
    }

    public void setPasswordFile(Optional<String> passwordFile) {
        this.passwordFile = passwordFile.filter(f -> !f.isBlank()).map(Path::of);
    }

    /** The embedded server's data directory (created on first start, reused after). */
    public Path getDataDir() {
        return dataDir;
    }

    public void setDataDir(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** The embedded server's port on 127.0.0.1; 0 picks a free one at each start. */
    public int getEmbeddedPort() {
        return embeddedPort;
    }

    public void setEmbeddedPort(int embeddedPort) {
        this.embeddedPort = embeddedPort;
    }

    /** The database the embedded server holds the gateway's tables in. */
    public String getEmbeddedDatabase() {
        return embeddedDatabase;
    }

    public void setEmbeddedDatabase(String embeddedDatabase) {
        this.embeddedDatabase = embeddedDatabase;
    }

    /** Tests only: a new, empty database per application context on the embedded server of this JVM. */
    public boolean isFreshDatabase() {
        return freshDatabase;
    }

    public void setFreshDatabase(boolean freshDatabase) {
        this.freshDatabase = freshDatabase;
    }
}
