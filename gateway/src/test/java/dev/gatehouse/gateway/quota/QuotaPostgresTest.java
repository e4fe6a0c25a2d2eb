package dev.gatehouse.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.store.Database;
import dev.gatehouse.gateway.store.EmbeddedStores;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Budgets on a real PostgreSQL (migration V11): two replicas drawing on one bucket share it rather than doubling it;
 * with the store gone, a replica grants only its conservative local share ({@code degraded-share}), never unlimited
 * calls and never none, and {@code /health} says so. The buckets' time is a test time that does not move, so no
 * token is refilled while the test runs.
 */
class QuotaPostgresTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Takes tokens of {@code quota} from {@code budgets} until one is refused (at most 1,000); how many it got. */
    private static int drain(Budgets budgets, Quota quota) {
        int taken = 0;
        while (taken < 1_000 && budgets.take(quota).isConsumed()) {
            taken++;
        }
        return taken;
    }

    @Test
    void replicasShareABudgetAndADownStoreLeavesTheLocalShare() throws Exception {
        Path dataDir = Path.of("target/test-postgres-quotas-" + System.nanoTime());
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, Map.of(
                "micronaut.server.port", "-1",
                "gatehouse.database.data-dir", dataDir.toString(),
                "gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                        + "/bundle.tar.gz",
                "gatehouse.audit.path", "target/test-decisions/quotas.jsonl",
                "gatehouse.quotas.sync-tokens", "0",
                "gatehouse.quotas.sync-interval", "1ms",
                "gatehouse.quotas.degraded-share", "0.5"), "test")) {
            ApplicationContext context = server.getApplicationContext();
            Database database = context.getBean(Database.class);
            QuotaProperties properties = context.getBean(QuotaProperties.class);
            AtomicLong ticks = new AtomicLong();
            QuotaTime time = new QuotaTime(Clock.systemUTC(), ticks::get);
            QuotaFactory factory = new QuotaFactory();
            PostgreSQLSelectForUpdateBasedProxyManager<String> buckets = factory.buckets(database, time);
            SharedBudgets replicaA = new SharedBudgets(buckets, properties);
            SharedBudgets replicaB = new SharedBudgets(factory.buckets(database, time), properties);
            Quota quota = new Quota("outside_agent/wiki_write/abuser", "wiki_write", 1, 20);

            int a = drain(replicaA, quota);
            int b = drain(replicaB, quota);
            assertTrue(a >= 20 && a + b <= 22, "one budget of 20 for both replicas, each at most one token unsynced: "
                    + a + " + " + b);
            assertEquals(java.util.List.of(1L), database.query("SELECT count(*) FROM quota_bucket WHERE id = ?",
                    statement -> statement.setString(1, SharedBudgets.key(quota)), row -> row.getLong(1)));

            QuotaLimiter limiter = new QuotaLimiter(replicaA, new LocalBudgets(time, properties.getDegradedShare()),
                    properties, ticks::get, Clock.systemUTC());
            assertEquals(Admission.Budget.SHARED, limiter.status().budgets());
            EmbeddedStores.stop(dataDir);

            Quota fresh = new Quota("outside_agent/wiki_write/other", "wiki_write", 1, 20);
            int local = 0;
            QuotaLimiter.Taken taken;
            while ((taken = limiter.take(fresh)).admitted()) {
                assertEquals(Admission.Budget.LOCAL, taken.budget());
                local++;
            }
            assertEquals(10, local, "half the burst of 20, then refused: never unlimited, never none");
            assertEquals(Admission.Budget.LOCAL, limiter.status().budgets());

            QuotaLimiter served = context.getBean(QuotaLimiter.class);
            served.take(fresh);
            JsonNode health = JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.getPort() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertEquals("local", health.path("quotas").path("budgets").asText(), health.toString());
            assertEquals("DEGRADED", health.path("quotas").path("status").asText());
            assertTrue(health.path("quotas").has("since"));
        }
    }
}
