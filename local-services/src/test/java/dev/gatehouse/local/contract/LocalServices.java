package dev.gatehouse.local.contract;

import dev.gatehouse.facade.host.HttpHostFacade;
import dev.gatehouse.facade.host.HttpNoticeThreads;
import dev.gatehouse.facade.host.HttpThreadFeed;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.ServiceEndpoint;
import dev.gatehouse.facade.project.HttpNoticeFeed;
import dev.gatehouse.facade.project.HttpProjectFacade;
import dev.gatehouse.facade.wiki.HttpWikiFacade;
import dev.gatehouse.local.LocalServicesApplication;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** The local services on a random loopback port over a given data directory, and facades pointed at them. */
final class LocalServices implements AutoCloseable {

    static final String CREDENTIAL = "local-test-credential";
    private static final Duration DEADLINE = Duration.ofSeconds(5);

    private final EmbeddedServer server;

    LocalServices(Path dataDir) {
        this(dataDir, Map.of());
    }

    /** With {@code properties} added to the configuration (e.g. {@code gatehouse.local.host-events-kept}). */
    LocalServices(Path dataDir, Map<String, Object> properties) {
        Map<String, Object> all = new HashMap<>(properties);
        all.putAll(Map.of("gatehouse.local.data-dir", dataDir.toString(), "gatehouse.local.credential", CREDENTIAL,
                "micronaut.server.port", -1));
        server = ApplicationContext.run(EmbeddedServer.class, all, LocalServicesApplication.ENVIRONMENT);
    }

    /** An idempotency key as the gateway derives one, for a decision of its own. */
    static IdempotencyKey key() {
        return IdempotencyKey.forDecision(UUID.randomUUID());
    }

    URI uri() {
        return server.getURI();
    }

    HttpWikiFacade wiki() {
        return wiki(CREDENTIAL);
    }

    HttpWikiFacade wiki(String credential) {
        return new HttpWikiFacade(client("wiki", credential), new ReplyMapper("wiki", DEADLINE.toMillis()));
    }

    HttpProjectFacade project() {
        return project(CREDENTIAL);
    }

    HttpProjectFacade project(String credential) {
        return new HttpProjectFacade(client("project", credential), new ReplyMapper("project", DEADLINE.toMillis()));
    }

    HttpHostFacade host() {
        return new HttpHostFacade(client("host", CREDENTIAL), new ReplyMapper("host", DEADLINE.toMillis()));
    }

    HttpNoticeFeed notices(String credential) {
        return new HttpNoticeFeed(client("project", credential), new ReplyMapper("project", DEADLINE.toMillis()));
    }

    HttpNoticeThreads noticeThreads() {
        return new HttpNoticeThreads(client("host", CREDENTIAL), new ReplyMapper("host", DEADLINE.toMillis()));
    }

    HttpThreadFeed threadFeed() {
        return new HttpThreadFeed(client("host", CREDENTIAL), new ReplyMapper("host", DEADLINE.toMillis()));
    }

    private ServiceClient client(String name, String credential) {
        return new ServiceClient(ServiceEndpoint.of(name, uri(), credential, DEADLINE));
    }

    @Override
    public void close() {
        server.getApplicationContext().close();
    }
}
