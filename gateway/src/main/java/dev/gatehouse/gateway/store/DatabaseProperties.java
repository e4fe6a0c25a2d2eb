package dev.gatehouse.gateway.store;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.time.Duration;
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
 * {@code cache-ttl} ({@code GATEHOUSE_DATABASE_CACHE_TTL}, default 1 s, at most 1 s, 0 turns the cache off) bounds how
 * long a replica may answer a session, settings or registration lookup from its cache ({@link StoreChanges}).
 * {@code deadline} ({@code GATEHOUSE_DATABASE_DEADLINE}, default 2 s, from 0.5 s to 30 s) bounds one store call in all:
 * waiting for a pooled connection, checking it, and every read of its statement's answer ({@link Database}); past it
 * the call is {@link StoreUnavailableException}, which the transport, the admin API and the probes answer as
 * {@code unavailable} (HTTP 503 with {@code Retry-After}), the same budget as a tool call's decision.
 */
@ConfigurationProperties(DatabaseProperties.PREFIX)
public class DatabaseProperties {

    public static final String PREFIX = "gatehouse.database";

    /** The longest {@link #getCacheTtl} may be: the bound on how late a change applies on another replica. */
    public static final Duration MAX_CACHE_TTL = Duration.ofSeconds(1);

    /** The shortest {@link #getDeadline}: room for checking a pooled connection and one round trip. */
    public static final Duration MIN_DEADLINE = Duration.ofMillis(500);

    /** The longest {@link #getDeadline}: a store call is on the path of a request a client waits for. */
    public static final Duration MAX_DEADLINE = Duration.ofSeconds(30);

    private Optional<Boolean> embedded = Optional.empty();
    private Optional<String> url = Optional.empty();
    private Optional<String> user = Optional.empty();
    private Optional<Path> passwordFile = Optional.empty();
    private Path dataDir = Path.of(".gatehouse-data", "postgres");
    private int embeddedPort;
    private String embeddedDatabase = "gatehouse";
    private boolean freshDatabase;
    private Duration cacheTtl = MAX_CACHE_TTL;
    private Duration deadline = Duration.ofSeconds(2);

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

    /**
     * How long a cached lookup may be answered without asking PostgreSQL again, even when no change notification
     * arrives; {@link Duration#ZERO}: every lookup asks.
     */
    public Duration getCacheTtl() {
        return cacheTtl;
    }

    /** @throws IllegalArgumentException when negative or longer than {@link #MAX_CACHE_TTL} */
    public void setCacheTtl(Duration cacheTtl) {
        if (cacheTtl.isNegative() || cacheTtl.compareTo(MAX_CACHE_TTL) > 0) {
            throw new IllegalArgumentException("gatehouse.database.cache-ttl must be between 0 and "
                    + MAX_CACHE_TTL.toMillis() + " ms, was " + cacheTtl.toMillis() + " ms");
        }
        this.cacheTtl = cacheTtl;
    }

    /** How long one store call may take in all, connection wait included, before it is unavailable. */
    public Duration getDeadline() {
        return deadline;
    }

    /** @throws IllegalArgumentException when outside {@link #MIN_DEADLINE} … {@link #MAX_DEADLINE} */
    public void setDeadline(Duration deadline) {
        if (deadline.compareTo(MIN_DEADLINE) < 0 || deadline.compareTo(MAX_DEADLINE) > 0) {
            throw new IllegalArgumentException("gatehouse.database.deadline must be between " + MIN_DEADLINE.toMillis()
                    + " and " + MAX_DEADLINE.toMillis() + " ms, was " + deadline.toMillis() + " ms");
        }
        this.deadline = deadline;
    }
}
