package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.decisions.DecisionIndex;
import dev.gatehouse.gateway.decisions.DecisionPage;
import dev.gatehouse.gateway.decisions.DecisionQuery;
import dev.gatehouse.gateway.decisions.DecisionSummary;
import dev.gatehouse.gateway.decisions.Outcome;
import dev.gatehouse.gateway.decisions.StoredDecision;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The decision index on the embedded PostgreSQL (a fresh database for this class): what is written is found by each
 * filter alone, newest first, with counts per outcome and reason; the cursor walks every page once; a scan that
 * reaches its bound says where it stopped and the pages go on from there; the sweep keeps the retention and the
 * record bound. Each test writes its own agents in its own hour, so the tests do not see each other's decisions.
 */
class PostgresDecisionIndexTest {

    private static ApplicationContext context;
    private static DecisionIndex index;
    private static Database database;

    @BeforeAll
    static void start() {
        context = ApplicationContext.run(Map.of("micronaut.server.port", "-1",
                "gatehouse.decision-index.enabled", "false"), "test");
        index = context.getBean(DecisionIndex.class);
        database = context.getBean(Database.class);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    /** Twelve decisions one minute apart from {@code hour}, varied in every field a search filters on. */
    private static List<StoredDecision> twelve(Instant hour, String agentPrefix) {
        List<StoredDecision> decisions = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Outcome outcome = Outcome.values()[i % 3];
            List<String> reasons = switch (outcome) {
                case ALLOWED -> List.of();
                case DENIED -> i % 2 == 0 ? List.of("tool.not_granted") : List.of("tool.not_granted", "wiki.path");
                case UNAVAILABLE -> List.of("service.lookup_failed");
                case RATE_LIMITED -> List.of("rate_limited"); // not among the twelve: see its own test
            };
            decisions.add(decision(hour.plus(Duration.ofMinutes(i)), agentPrefix + (i % 2), i % 4 == 0
                    ? "outside_agent" : "thread", i % 3 == 0 ? "wiki_read" : "wiki_write", outcome, reasons,
                    i < 6 ? "rev-1" : "rev-2", i == 11 ? "notice" : "tools/call"));
        }
        return decisions;
    }

    private static StoredDecision decision(Instant at, String agent, String kind, String tool, Outcome outcome,
            List<String> reasons, String revision, String method) {
        UUID id = UUID.randomUUID();
        DecisionSummary summary = new DecisionSummary(id, at, "replica-a", method, Optional.of(tool), kind, agent,
                Optional.of("t1"), outcome, reasons, Optional.of(revision), Optional.of("default"));
        return new StoredDecision(summary, "{\"decision_id\":\"" + id + "\",\"arguments\":{\"x\":\"<b>\"}}",
                Optional.of("[{\"key\":\"k\"}]"), false);
    }

    private static DecisionQuery query(Instant hour, UnaryOperator<Filters> filters) {
        Filters f = filters.apply(new Filters());
        return new DecisionQuery(hour, hour.plus(Duration.ofHours(1)), f.agent, f.kind, f.tool, f.outcome, f.reason,
                f.revision, f.method, 100, Optional.empty());
    }

    /** The filters of one query, all empty unless set. */
    private static final class Filters {
        Optional<String> agent = Optional.empty();
        Optional<String> kind = Optional.empty();
        Optional<String> tool = Optional.empty();
        Optional<Outcome> outcome = Optional.empty();
        Optional<String> reason = Optional.empty();
        Optional<String> revision = Optional.empty();
        Optional<String> method = Optional.empty();
    }

    private static List<UUID> ids(List<StoredDecision> decisions, java.util.function.Predicate<DecisionSummary> p) {
        return decisions.stream().map(StoredDecision::summary).filter(p)
                .sorted((a, b) -> b.decidedAt().compareTo(a.decidedAt())).map(DecisionSummary::decisionId).toList();
    }

    private static List<UUID> ids(DecisionPage page) {
        return page.decisions().stream().map(DecisionSummary::decisionId).toList();
    }

    @Test
    void eachFilterFindsExactlyItsDecisionsNewestFirstWithCounts() {
        Instant hour = Instant.parse("2021-03-01T10:00:00Z");
        String prefix = "agent-" + UUID.randomUUID() + "-";
        List<StoredDecision> all = twelve(hour, prefix);
        index.add(all);

        DecisionPage everything = index.search(query(hour, f -> f), 50_000);
        assertEquals(ids(all, s -> true), ids(everything), "the whole hour, newest first");
        assertEquals(12, everything.matched());
        assertEquals(Map.of(Outcome.ALLOWED, 4L, Outcome.DENIED, 4L, Outcome.UNAVAILABLE, 4L), everything.outcomes());
        assertEquals(List.of("service.lookup_failed", "tool.not_granted", "wiki.path"),
                List.copyOf(everything.reasons().keySet()), "most frequent first, then by code");
        assertEquals(4L, everything.reasons().get("tool.not_granted"));
        assertEquals(2L, everything.reasons().get("wiki.path"));
        assertTrue(everything.stoppedAt().isEmpty());
        assertTrue(everything.next().isEmpty());

        assertEquals(ids(all, s -> s.agentId().equals(prefix + 1)),
                ids(index.search(query(hour, f -> { f.agent = Optional.of(prefix + 1); return f; }), 50_000)));
        assertEquals(ids(all, s -> s.callerKind().equals("outside_agent")),
                ids(index.search(query(hour, f -> { f.kind = Optional.of("outside_agent"); return f; }), 50_000)));
        assertEquals(ids(all, s -> s.tool().orElseThrow().equals("wiki_read")),
                ids(index.search(query(hour, f -> { f.tool = Optional.of("wiki_read"); return f; }), 50_000)));
        assertEquals(ids(all, s -> s.outcome() == Outcome.DENIED),
                ids(index.search(query(hour, f -> { f.outcome = Optional.of(Outcome.DENIED); return f; }), 50_000)));
        assertEquals(ids(all, s -> s.reasons().contains("wiki.path")),
                ids(index.search(query(hour, f -> { f.reason = Optional.of("wiki.path"); return f; }), 50_000)));
        assertEquals(ids(all, s -> s.revision().orElseThrow().equals("rev-2")),
                ids(index.search(query(hour, f -> { f.revision = Optional.of("rev-2"); return f; }), 50_000)));
        assertEquals(ids(all, s -> s.method().equals("notice")),
                ids(index.search(query(hour, f -> { f.method = Optional.of("notice"); return f; }), 50_000)));
        DecisionPage denied = index.search(query(hour, f -> { f.outcome = Optional.of(Outcome.DENIED); return f; }),
                50_000);
        assertEquals(Map.of(Outcome.DENIED, 4L), denied.outcomes(), "counts follow the filters");
        assertTrue(index.search(query(hour, f -> { f.agent = Optional.of("nobody"); return f; }), 50_000)
                .decisions().isEmpty());
        assertTrue(index.search(query(hour.plus(Duration.ofHours(1)), f -> f), 50_000).decisions().isEmpty(),
                "the range's end is exclusive and the next hour is empty");
    }

    @Test
    void aCallTheQuotaStepRefusedIsStoredAndFoundByItsOutcomeAndItsCode() {
        Instant hour = Instant.parse("2021-04-01T10:00:00Z");
        String agent = "agent-" + UUID.randomUUID();
        List<StoredDecision> both = List.of(
                decision(hour, agent, "thread", "wiki_write", Outcome.RATE_LIMITED, List.of("rate_limited"), "rev-1",
                        "tools/call"),
                decision(hour.plus(Duration.ofMinutes(1)), agent, "thread", "wiki_write", Outcome.ALLOWED, List.of(),
                        "rev-1", "tools/call"));
        index.add(both);
        List<UUID> limited = ids(both, s -> s.outcome() == Outcome.RATE_LIMITED);
        assertEquals(limited, ids(index.search(query(hour, f -> {
            f.agent = Optional.of(agent);
            f.outcome = Optional.of(Outcome.RATE_LIMITED);
            return f;
        }), 50_000)));
        assertEquals(limited, ids(index.search(query(hour, f -> {
            f.agent = Optional.of(agent);
            f.reason = Optional.of("rate_limited");
            return f;
        }), 50_000)));
    }

    @Test
    void oneDecisionIsFoundWithItsRecordAndAddingItAgainChangesNothing() {
        Instant hour = Instant.parse("2021-03-02T10:00:00Z");
        List<StoredDecision> all = twelve(hour, "find-" + UUID.randomUUID() + "-");
        index.add(all);
        StoredDecision one = all.get(5);
        StoredDecision found = index.find(one.summary().decisionId()).orElseThrow();
        assertEquals(one.summary(), found.summary());
        assertEquals(one.record(), found.record());
        assertEquals(one.values(), found.values());
        assertFalse(found.valuesMissing());

        index.add(all); // the same batch again, as after a restart before the cursor was saved
        assertEquals(12, index.search(query(hour, f -> f), 50_000).matched());
        assertTrue(index.find(UUID.randomUUID()).isEmpty());
    }

    @Test
    void theCursorWalksEveryPageOnceNewestFirst() {
        Instant hour = Instant.parse("2021-03-03T10:00:00Z");
        List<StoredDecision> all = new ArrayList<>(twelve(hour, "page-" + UUID.randomUUID() + "-"));
        // two decisions at the same microsecond: the id breaks the tie, and neither is lost between pages
        all.add(decision(hour.plus(Duration.ofMinutes(4)), "tie", "thread", "wiki_read", Outcome.ALLOWED, List.of(),
                "rev-1", "tools/call"));
        index.add(all);
        DecisionQuery first = query(hour, f -> f);
        List<UUID> walked = new ArrayList<>();
        DecisionQuery page = new DecisionQuery(first.from(), first.to(), first.agent(), first.callerKind(),
                first.tool(), first.outcome(), first.reason(), first.revision(), first.method(), 5, Optional.empty());
        int pages = 0;
        while (true) {
            DecisionPage got = index.search(page, 50_000);
            pages++;
            assertEquals(13, got.matched(), "the counts are the whole search's on every page");
            walked.addAll(ids(got));
            if (got.next().isEmpty()) {
                break;
            }
            DecisionQuery.Cursor token = DecisionQuery.Cursor.parse(got.next().get().token()).orElseThrow();
            page = page.after(token, 5);
        }
        assertEquals(3, pages);
        assertEquals(13, new HashSet<>(walked).size());
        assertEquals(Set.copyOf(all.stream().map(d -> d.summary().decisionId()).toList()), Set.copyOf(walked));
        Map<UUID, Instant> at = new java.util.HashMap<>();
        all.forEach(d -> at.put(d.summary().decisionId(), d.summary().decidedAt()));
        for (int i = 0; i < walked.size() - 1; i++) {
            assertFalse(at.get(walked.get(i)).isBefore(at.get(walked.get(i + 1))), "newest first at " + i);
        }
    }

    @Test
    void aScanThatReachesItsBoundSaysWhereItStoppedAndThePagesGoOnFromThere() {
        Instant hour = Instant.parse("2021-03-04T10:00:00Z");
        List<StoredDecision> all = twelve(hour, "scan-" + UUID.randomUUID() + "-");
        index.add(all);
        // minutes 0, 4 and 8 are outside_agent: the look at the newest five (minutes 7-11) finds minute 8 only
        DecisionQuery outside = query(hour, f -> { f.kind = Optional.of("outside_agent"); return f; });
        DecisionPage first = index.search(outside, 5);
        assertEquals(5, first.scanned());
        assertEquals(Optional.of(hour.plus(Duration.ofMinutes(7))), first.stoppedAt(), "the oldest decision looked at");
        assertTrue(first.pageLimited());
        assertEquals(ids(all, s -> s.callerKind().equals("outside_agent")).subList(0, 1), ids(first));
        assertTrue(first.next().isPresent(), "the search goes on past where the look stopped");
        List<UUID> found = new ArrayList<>(ids(first));
        DecisionQuery next = outside.after(first.next().get(), 100);
        while (true) {
            DecisionPage page = index.search(next, 5);
            found.addAll(ids(page));
            if (page.next().isEmpty()) {
                break;
            }
            next = outside.after(page.next().get(), 100);
        }
        assertEquals(ids(all, s -> s.callerKind().equals("outside_agent")), found,
                "bounded looks, one after another, find every match once");
        assertTrue(index.search(outside, 50_000).stoppedAt().isEmpty(), "a scan within the bound stops nowhere");
    }

    @Test
    void theSweepKeepsTheRetentionAndTheRecordBound() {
        Instant old = Instant.parse("2000-01-01T10:00:00Z");
        List<StoredDecision> stale = twelve(old, "stale-" + UUID.randomUUID() + "-");
        index.add(stale);
        Instant recent = Instant.parse("2000-01-02T10:00:00Z");
        List<StoredDecision> fresh = twelve(recent, "fresh-" + UUID.randomUUID() + "-");
        index.add(fresh);
        index.add(fresh); // the skipped duplicates leave gaps in seq, which the record bound must not count

        long deleted = index.sweep(old.plus(Duration.ofMinutes(6)), Long.MAX_VALUE / 2);
        assertEquals(6, deleted, "the six decisions before the retention bound");
        assertEquals(6, index.search(query(old, f -> f), 50_000).matched());
        assertTrue(index.find(stale.get(0).summary().decisionId()).isEmpty(), "its record went with it");
        assertEquals(0, database.one("SELECT count(*) FROM decision_record r WHERE NOT EXISTS"
                + " (SELECT 1 FROM decision_index i WHERE i.seq = r.seq)", s -> { }, r -> r.getLong(1))
                .orElseThrow());

        long total = database.one("SELECT count(*) FROM decision_index", s -> { }, r -> r.getLong(1)).orElseThrow();
        long sweptForSize = index.sweep(Instant.EPOCH, total - 3);
        assertEquals(3, sweptForSize, "the earliest indexed beyond the record bound");
        assertEquals(total - 3,
                database.one("SELECT count(*) FROM decision_index", s -> { }, r -> r.getLong(1)).orElseThrow());
        assertEquals(12, index.search(query(recent, f -> f), 50_000).matched(), "the newest stay");
    }
}
