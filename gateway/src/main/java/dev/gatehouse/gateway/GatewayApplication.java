package dev.gatehouse.gateway;

import dev.gatehouse.gateway.store.EmbeddedPostgresServer;
import io.micronaut.runtime.Micronaut;
import java.time.Duration;

/** Starts the Gatehouse gateway: the gated MCP endpoint {@code /mcp}, the admin API and {@code /health}. */
public final class GatewayApplication {

    private GatewayApplication() {
    }

    /**
     * How long the shutdown hook waits for the application context to close before it stops the embedded
     * PostgreSQL anyway: longer than the drain of in-flight calls ({@code gatehouse.drain.deadline}, 20 s by default).
     */
    private static final Duration STORE_STOP_WAIT = Duration.ofSeconds(60);

    public static void main(String[] args) {
        // The embedded PostgreSQL stops after the context, not beside it: JVM shutdown hooks run all at once, and its
        // own hook would stop the database under the pool, the store listener and the notice consumers still closing.
        EmbeddedPostgresServer.stopOnlyWhenAsked();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> EmbeddedPostgresServer.stopAll(STORE_STOP_WAIT),
                "gatehouse-embedded-store-stop"));
        // No banner: standard output is JSON log lines (logback.xml), one object per line.
        Micronaut.build(args).mainClass(GatewayApplication.class).banner(false).start();
    }
}
