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
import dev.gatehouse.gateway.decisions.DecisionRecords;
import dev.gatehouse.gateway.decisions.DecisionSummary;
import dev.gatehouse.gateway.decisions.Outcome;
import dev.gatehouse.gateway.decisions.StoredDecision;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.ApplicationContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The feed from a replica's decision log into the decision index, with the real log, the real PDP and the index on
 * the embedded PostgreSQL: while the index cannot be written every decision is still logged (the call path never
 * waits for the index), the feed reports the failure, and once the index answers again every record arrives once,
 * with its values, findable by id and by search. The records the writer hands the feed are indexed as the files list
 * them, and the feed reads the files wherever the handed records do not continue at its cursor: at its first start,
 * after a restart, while the hand-off is full, after the store was down; across rotations it does not need to.
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
        /** How long each add takes (a slow store). */
        volatile long addMillis;

        private void check() {
            if (down) {
                refused++;
                throw new StoreUnavailableException("store unavailable (test outage)", null);
            }
        }

        @Override
        public void add(List<StoredDecision> decisions) {
            check();
            if (addMillis > 0) {
                try {
                    Thread.sleep(addMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
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

    private static EmbeddedPdp pdp() {
        return new EmbeddedPdp(TestBundle.configuration(Path.of(
                System.getProperty("gatehouse.bundle.dir", "../target/bundle"), "bundle.tar.gz")));
    }

    private static DecisionIndexConfiguration fastFeed() {
        DecisionIndexConfiguration configuration = new DecisionIndexConfiguration();
        configuration.setMinBackoff(Duration.ofMillis(10));
        configuration.setMaxBackoff(Duration.ofMillis(50));
        configuration.setBatchDelay(Duration.ofMillis(10));
        configuration.setBatchMaxRecords(7);
        return configuration;
    }

    /** A replica's log in {@code live} and its feed into {@code index}, started. */
    private record Replica(IndexFeed feed, DecisionLog log, SimpleMeterRegistry meters) implements AutoCloseable {

        static Replica start(DecisionIndexConfiguration configuration, DecisionLogConfiguration logConfiguration,
                DecisionIndex index, EmbeddedPdp pdp, String name) throws Exception {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            IndexFeed feed = new IndexFeed(configuration, logConfiguration.file(), index, pdp, name,
                    Clock.systemUTC(), meters);
            DecisionLog log = new DecisionLog(logConfiguration, Clock.systemUTC(), UnaryOperator.identity(),
                    List.of(feed), new SimpleMeterRegistry());
            feed.start();
            return new Replica(feed, log, meters);
        }

        double indexed() {
            return meters.counter(IndexFeed.INDEXED).count();
        }

        double readBack() {
            return meters.counter(IndexFeed.READ_BACK).count();
        }

        double dropped() {
            return meters.counter(IndexFeed.HANDOFF_DROPPED).count();
        }

        List<UUID> write(int count) {
            return DecisionIndexFeedTest.write(log, count);
        }

        /** Waits until the feed counted {@code count} decisions and every one of {@code ids} is in the index. */
        void awaitIndexed(double count, List<UUID> ids) throws InterruptedException {
            await("every record in the index", () -> ids.stream().allMatch(id -> real.find(id).isPresent()));
            await(count + " decisions counted", () -> indexed() >= count);
        }

        @Override
        public void close() {
            feed.close();
            log.close();
        }
    }

    /** Writes {@code count} records of the kinds the index lists differently to {@code log}, one after another. */
    private static List<UUID> write(DecisionLog log, int count) {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            DecisionRecord record = switch (i % 5) {
                case 0 -> AuditFixtures.record(10);
                case 1 -> AuditFixtures.read("page.md");
                case 2 -> AuditFixtures.read(AuditFixtures.longPath()); // stand-ins, values in the values file
                case 3 -> DecisionRecord.forCall(AuditFixtures.WRITE, new PolicyOutcome.Failed<>(
                        new PolicyFault(PolicyFault.TIMEOUT, "no answer")));
                default -> AuditFixtures.record(9000); // reduced
            };
            assertInstanceOf(LogResult.Written.class, log.record(record));
            ids.add(record.decisionId());
        }
        return ids;
    }

    /**
     * Every record of the log's files is in the index as reading its line lists it (the time as the store keeps it,
     * to the microsecond), with the line itself, and the values of its stand-ins.
     */
    private static void assertIndexedAsTheFilesList(DecisionLog log, EmbeddedPdp pdp, String replica)
            throws Exception {
        Predicate<String> retryable = code -> pdp.serving().map(s -> s.contents().retryable(code)).orElse(false);
        int records = 0;
        for (Path file : log.files()) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                DecisionSummary listed = DecisionRecords.summary(line.getBytes(StandardCharsets.UTF_8), replica,
                        retryable).orElseThrow().summary();
                StoredDecision stored = real.find(listed.decisionId()).orElseThrow();
                assertEquals(line, stored.record());
                assertEquals(withoutTime(listed), withoutTime(stored.summary()), line);
                assertTrue(Duration.between(listed.decidedAt(), stored.summary().decidedAt()).abs().toNanos() < 1_000);
                assertEquals(line.contains("\"redacted\"") || line.contains("\"reduced\""),
                        stored.values().isPresent(), line);
                records++;
            }
        }
        assertTrue(records > 0);
    }

    private static DecisionSummary withoutTime(DecisionSummary s) {
        return new DecisionSummary(s.decisionId(), Instant.EPOCH, s.replica(), s.method(), s.tool(), s.callerKind(),
                s.agentId(), s.threadId(), s.outcome(), s.reasons(), s.revision(), s.keyId());
    }

    @Test
    void handedRecordsAreIndexedAsTheFilesListThemWithoutReadingTheFilesAgain(@TempDir Path dir) throws Exception {
        EmbeddedPdp pdp = pdp();
        try (Replica replica = Replica.start(fastFeed(), AuditFixtures.configuration(dir.resolve("decisions.jsonl")),
                real, pdp, "replica-handed")) {
            replica.awaitIndexed(1, replica.write(1));
            assertEquals(1, replica.readBack(), "with no cursor yet, the first record is read from the file");

            List<UUID> ids = replica.write(40);
            replica.awaitIndexed(41, ids);
            assertEquals(41, replica.indexed(), "each record once");
            assertEquals(1, replica.readBack(), "the others were handed");
            assertEquals(0, replica.dropped());
            assertIndexedAsTheFilesList(replica.log(), pdp, "replica-handed");
        }
    }

    @Test
    void whileTheHandoffIsFullTheFeedReadsTheFilesAndIndexesEveryRecordOnce(@TempDir Path dir) throws Exception {
        EmbeddedPdp pdp = pdp();
        DecisionIndexConfiguration configuration = fastFeed();
        configuration.setHandoffMaxRecords(3);
        Outage slow = new Outage();
        slow.down = false;
        slow.addMillis = 30;
        try (Replica replica = Replica.start(configuration, AuditFixtures.configuration(dir.resolve(
                "decisions.jsonl")), slow, pdp, "replica-full")) {
            replica.awaitIndexed(1, replica.write(1));
            List<UUID> ids = replica.write(60);
            replica.awaitIndexed(61, ids);
            Thread.sleep(100); // a record indexed twice would be counted by now
            assertEquals(61, replica.indexed(), "each record once");
            assertTrue(replica.dropped() > 0, "the hand-off was full");
            assertTrue(replica.readBack() > 1, "what it did not keep was read from the files");
            assertIndexedAsTheFilesList(replica.log(), pdp, "replica-full");
        }
    }

    @Test
    void aRestartedFeedReadsWhatWasWrittenSinceItsCursorThenTakesHandedRecords(@TempDir Path dir) throws Exception {
        EmbeddedPdp pdp = pdp();
        DecisionLogConfiguration logConfiguration = AuditFixtures.configuration(dir.resolve("decisions.jsonl"));
        List<UUID> ids = new ArrayList<>();
        try (Replica first = Replica.start(fastFeed(), logConfiguration, real, pdp, "replica-restart")) {
            ids.addAll(first.write(10));
            first.awaitIndexed(10, ids);
        }
        DecisionLog unfed = new DecisionLog(logConfiguration); // no feed follows the log for a while
        try {
            ids.addAll(write(unfed, 5));
        } finally {
            unfed.close();
        }
        try (Replica second = Replica.start(fastFeed(), logConfiguration, real, pdp, "replica-restart")) {
            second.awaitIndexed(5, ids);
            assertEquals(5, second.readBack(), "from the cursor on, read from the file");
            List<UUID> more = second.write(10);
            ids.addAll(more);
            second.awaitIndexed(15, ids);
            assertEquals(15, second.indexed(), "nothing before the cursor again");
            assertEquals(5, second.readBack(), "the new records were handed");
            assertIndexedAsTheFilesList(second.log(), pdp, "replica-restart");
        }
    }

    @Test
    void acrossRotationsTheFeedGoesOnWithTheHandedRecordsOfEachFreshFile(@TempDir Path dir) throws Exception {
        EmbeddedPdp pdp = pdp();
        DecisionLogConfiguration logConfiguration = AuditFixtures.configuration(dir.resolve("decisions.jsonl"));
        logConfiguration.setMaxFileBytes(48 * 1024);
        logConfiguration.setMaxFiles(1000); // none deleted before it is indexed
        try (Replica replica = Replica.start(fastFeed(), logConfiguration, real, pdp, "replica-rotating")) {
            replica.awaitIndexed(1, replica.write(1));
            List<UUID> ids = replica.write(60);
            replica.awaitIndexed(61, ids);
            assertTrue(replica.log().files().size() > 3, "rotated: " + replica.log().files());
            assertEquals(61, replica.indexed(), "each record once");
            assertEquals(1, replica.readBack(), "no record read back, only the first");
            assertIndexedAsTheFilesList(replica.log(), pdp, "replica-rotating");
        }
    }

    @Test
    void afterTheStoreWasDownTheBacklogComesFromTheFilesThenHandedRecordsAgain(@TempDir Path dir) throws Exception {
        EmbeddedPdp pdp = pdp();
        DecisionIndexConfiguration configuration = fastFeed();
        configuration.setHandoffMaxRecords(10);
        Outage outage = new Outage();
        outage.down = false;
        try (Replica replica = Replica.start(configuration, AuditFixtures.configuration(dir.resolve(
                "decisions.jsonl")), outage, pdp, "replica-outage")) {
            List<UUID> ids = new ArrayList<>(replica.write(1));
            replica.awaitIndexed(1, ids);

            outage.down = true;
            ids.addAll(replica.write(30));
            await("the feed to report the failure", () -> replica.feed().status().view().failing());
            assertEquals(20, replica.dropped(), "the hand-off kept the 10 records after the cursor");
            outage.down = false;
            replica.awaitIndexed(31, ids);
            assertEquals(31, replica.indexed(), "each record once");
            assertEquals(21, replica.readBack(), "the 20 it did not keep were read from the file");

            for (int i = 0; i < 20; i++) {
                List<UUID> one = replica.write(1);
                ids.addAll(one);
                replica.awaitIndexed(32 + i, one);
            }
            assertEquals(51, replica.indexed());
            assertEquals(21, replica.readBack(), "handed again");
            assertIndexedAsTheFilesList(replica.log(), pdp, "replica-outage");
        }
    }
}
