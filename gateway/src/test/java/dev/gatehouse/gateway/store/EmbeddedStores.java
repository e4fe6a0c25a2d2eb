package dev.gatehouse.gateway.store;

import java.io.IOException;
import java.nio.file.Path;

/** For tests outside this package: stops the embedded PostgreSQL a gateway context started on {@code dataDir}. */
public final class EmbeddedStores {

    private EmbeddedStores() {
    }

    /** Stops the server of {@code dataDir}, as an outage the context's own pool then sees. */
    public static void stop(Path dataDir) throws IOException {
        EmbeddedPostgresServer.start(dataDir, 0).close();
    }
}
