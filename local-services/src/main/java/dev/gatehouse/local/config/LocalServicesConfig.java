package dev.gatehouse.local.config;

import dev.gatehouse.local.host.HostStore;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;

/**
 * {@code gatehouse.local.*}: where the local services keep their data and which credential they require.
 *
 * <ul>
 *   <li>{@code data-dir}: data directory, default {@code .gatehouse-data} under the working directory; seeded with
 *       demo data when it does not exist yet</li>
 *   <li>{@code credential}: the Bearer credential every request must carry (set {@code GATEHOUSE_LOCAL_CREDENTIAL});
 *       start-up fails without one</li>
 *   <li>{@code port}: the loopback port, default 8181 (read by {@code micronaut.server.port})</li>
 *   <li>{@code host-events-kept}: how many of the latest host thread events the feed keeps (default 256); a reader
 *       whose cursor is older lists again ({@code GATEHOUSE_LOCAL_HOST_EVENTS_KEPT})</li>
 * </ul>
 */
@ConfigurationProperties("gatehouse.local")
public class LocalServicesConfig {

    private Path dataDir = Path.of(".gatehouse-data");
    private String credential;
    private int hostEventsKept = HostStore.DEFAULT_EVENTS_KEPT;

    public Path getDataDir() {
        return dataDir;
    }

    public void setDataDir(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** The required credential; never logged. */
    public String getCredential() {
        return credential;
    }

    public void setCredential(String credential) {
        this.credential = credential;
    }

    public int getHostEventsKept() {
        return hostEventsKept;
    }

    public void setHostEventsKept(int hostEventsKept) {
        this.hostEventsKept = hostEventsKept;
    }

    @Override
    public String toString() {
        return "LocalServicesConfig[dataDir=" + dataDir + "]";
    }
}
