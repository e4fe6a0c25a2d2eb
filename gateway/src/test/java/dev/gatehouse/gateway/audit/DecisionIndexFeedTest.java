package dev.gatehouse.gateway.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.audit.shipping.IndexFeed;
import dev.gatehouse.gateway.decisions.DecisionIndex;
import dev.gatehouse.gateway.decisions.DecisionIndexConfiguration;
import dev.gatehouse.gateway.decisions.DecisionPage;
import dev.gatehouse.gateway.decisions.DecisionQuery;
import dev.gatehouse.gateway.decisions.Outcome;
import dev.gatehouse.gateway.decisions.StoredDecision;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.ApplicationContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed from a replica's decision log into the decision index, with the real log, the real PDP and the index on
 * the embedded PostgreSQL: while the index cannot be written every decision is still logged (the call path never
 * waits for the index), the feed reports the failure, and once the index answers again every record arrives once,
 * with its values, findable by id and by search.
 */
class DecisionIndexFeedTest {

    private static ApplicationContext context;
    private static DecisionIndex real;

    @BeforeAll
    static void start() {
        context = ApplicationContext.run(Map.of("micronaut.server.port", "-1",
                "gatehouse.decision-index.enabled", "false"), "test");
        real = context.getBean(DecisionIndex.class);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    /** The shared store as this replica sees it: down (every call throws, as the store does) until it is up. */
    private static final class Outage implements DecisionIndex {

        volatile boolean down = true;
        volatile int refused;

        private void check() {
            if (down) {
                refused++;
                throw new StoreUnavailableException("store unavailable (test outage)", null);
            }
        }

        @Override
        public void add(List<StoredDecision> decisions) {
            check();
            real.add(decisions);
        }

        @Override
        public DecisionPage search(DecisionQuery query, int scanLimit) {
            check();
            return real.search(query, scanLimit);
        }

        @Override
        public RecordPage records(DecisionQuery query, int scanLimit) {
            check();
            return real.records(query, scanLimit);
        }

        @Override
        public Optional<StoredDecision> find(UUID decisionId) {
            check();
            return real.find(decisionId);
        }

        @Override
        public long sweep(Instant before, long maxRecords) {
            check();
            return real.sweep(before, maxRecords);
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "waited 30 s for " + what);
            Thread.sleep(10);
        }
    }

    @Test
    void aReplicaWhoseIndexFailsKeepsDecidingAndTheIndexCatchesUpFromTheLog(@TempDir Path dir) throws Exception {
        EmbeddedPdp pdp = new EmbeddedPdp(TestBundle.configuration(Path.of(
                System.getProperty("gatehouse.bundle.dir", "../target/bundle"), "bundle.tar.gz")));
        DecisionIndexConfiguration configuration = new DecisionIndexConfiguration();
        configuration.setMinBackoff(Duration.ofMillis(10));
        configuration.setMaxBackoff(Duration.ofMillis(50));
        configuration.setBatchDelay(Duration.ofMillis(10));
        configuration.setBatchMaxRecords(7);
        Outage outage = new Outage();
        Path live = dir.resolve("decisions.jsonl");
        IndexFeed feed = new IndexFeed(configuration, live, outage, pdp, "replica-feed", Clock.systemUTC(),
                new SimpleMeterRegistry());
        DecisionLog log = new DecisionLog(AuditFixtures.configuration(live), Clock.systemUTC(),
                UnaryOperator.identity(), List.of(feed), new SimpleMeterRegistry());
        feed.start();
        try {
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                DecisionRecord record = i % 2 == 0 ? AuditFixtures.record(10) : AuditFixtures.read(
                        AuditFixtures.longPath());
                assertInstanceOf(LogResult.Written.class, log.record(record), "the call path logs while it is down");
                ids.add(record.decisionId());
            }
            await("the feed to report the failure", () -> feed.status().view().failing() && outage.refused >= 2);
            assertTrue(feed.status().view().lastError().orElseThrow().contains("writing the index"));
            assertEquals(30, AuditFixtures.readAll(log.files()).size(), "the log, the record of truth, has all");

            outage.down = false;
            await("every record in the index", () -> ids.stream().allMatch(id -> real.find(id).isPresent()));
            await("the feed to recover", () -> !feed.status().view().failing());
            // The feed counts a batch after the index took it (and after saving its cursor): the last batch can be
            // findable a moment before it is counted.
            await("every batch counted", () -> feed.status().view().indexed() >= 30);
            assertEquals(30, feed.status().view().indexed(), "each record written once");

            StoredDecision read = real.find(ids.get(1)).orElseThrow();
            assertEquals("replica-feed", read.summary().replica());
            assertEquals(Outcome.ALLOWED, read.summary().outcome());
            assertEquals(Optional.of("wiki_read"), read.summary().tool());
            assertTrue(read.values().isPresent(), "the long path's value is kept beside its stand-in");
            assertFalse(read.valuesMissing());
            assertTrue(read.values().get().contains("\u00e9"), read.values().get());
            JsonNode record = PolicyJson.MAPPER.readTree(read.record());
            assertEquals(ids.get(1).toString(), record.path("decision_id").asText());
            StoredDecision write = real.find(ids.get(0)).orElseThrow();
            assertEquals(Outcome.DENIED, write.summary().outcome());
            assertEquals(List.of("schema"), write.summary().reasons().subList(0, 1));
            assertFalse(write.record().contains("tok-SECRET"), "redacted values stay redacted in the index");

            Instant now = Instant.now();
            DecisionPage page = real.search(new DecisionQuery(now.minus(Duration.ofHours(1)),
                    now.plus(Duration.ofMinutes(1)), Optional.of(read.summary().agentId()), Optional.empty(),
                    Optional.empty(), Optional.of(Outcome.DENIED), Optional.empty(), Optional.empty(),
                    Optional.empty(), 100, Optional.empty()), 50_000);
            assertEquals(15, page.decisions().stream().filter(d -> d.replica().equals("replica-feed")).count());
        } finally {
            feed.close();
            log.close();
        }
    }
}
