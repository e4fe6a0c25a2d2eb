package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import dev.gatehouse.gateway.policy.bundle.SignedBundles;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.support.Facts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The decision memo in front of the real embedded engine: what it keeps, what it never keeps, when it forgets. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoizingPdpTest {

    private EmbeddedPdp engine;

    @BeforeAll
    void start() {
        engine = engine(TestBundle.freshBundle());
    }

    @Test
    void aRepeatedInputIsAnsweredFromTheMemoWithTheEngineDecision() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        MemoizingPdp memo = MemoizingPdp.over(engine, new MemoConfiguration(), meters);
        DecisionInput write = Facts.call("wiki_write", Map.of("path", "notes/a.md", "content", "hello"));
        Decision fresh = decided(engine.decide(write));
        Decision first = decided(memo.decide(write));
        Decision second = decided(memo.decide(write));
        assertTrue(fresh.allow(), "the case must be allowed to carry obligations: " + fresh);
        for (Decision d : List.of(first, second)) {
            assertEquals(DecisionJson.decision(fresh), DecisionJson.decision(d));
            assertEquals(fresh.bundleRevision(), d.bundleRevision());
            // The decision record names the verifying key, also for an answer from the memo.
            assertTrue(fresh.bundleKeyId().isPresent(), fresh.toString());
            assertEquals(fresh.bundleKeyId(), d.bundleKeyId());
        }
        assertEquals(1.0, count(meters, "decision", "hit"));
        assertEquals(1.0, count(meters, "decision", "miss"));

        DecisionInput escape = Facts.call("wiki_write", Map.of("path", "../a2/x.md", "content", "hello"));
        Decision denied = decided(memo.decide(escape));
        assertFalse(denied.allow());
        assertEquals(DecisionJson.decision(decided(engine.decide(escape))), DecisionJson.decision(denied));
        assertEquals(DecisionJson.decision(denied), DecisionJson.decision(decided(memo.decide(escape))));
        assertEquals(2.0, count(meters, "decision", "hit"));
        assertEquals(2.0, count(meters, "decision", "miss"));
        assertEquals(2, memo.size());
    }

    /** The golden matrix through the memo, each typed case twice: once evaluated, once answered from the memo. */
    @Test
    void everyGoldenDecisionMatchesOnMissAndOnHit() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        MemoizingPdp memo = MemoizingPdp.over(engine, new MemoConfiguration(), meters);
        int typed = 0;
        for (GoldenCases.GoldenCase c : GoldenCases.all()) {
            if (c.typed().isEmpty()) {
                continue;
            }
            typed++;
            for (int round = 0; round < 2; round++) {
                assertEquals(c.expected(), DecisionJson.decision(decided(memo.decide(c.typed().get()))),
                        c.id() + (round == 0 ? " (miss)" : " (hit)"));
            }
        }
        assertTrue(typed > 100, "too few typed golden cases: " + typed);
        assertTrue(count(meters, "decision", "hit") >= typed, "the second round must be answered from the memo");
    }

    @Test
    void inputsThatDifferInAnyFactAreDecidedSeparately() {
        MemoizingPdp memo = MemoizingPdp.over(engine, new MemoConfiguration(), new SimpleMeterRegistry());
        DecisionInput allowed = Facts.call("wiki_write", Map.of("path", "notes/a.md", "content", "x"));
        DecisionInput noWrite = new DecisionInput(allowed.tool(), allowed.arguments(), List.of(),
                new dev.gatehouse.facts.CallerFacts("thread", "a1", Optional.of("t1"),
                        Optional.of("pi-1"), allowed.caller().thread(), Optional.empty(),
                        new dev.gatehouse.facts.CallerFacts.Settings(true, true, true, true, false),
                        Optional.empty()),
                Map.of());
        assertTrue(decided(memo.decide(allowed)).allow());
        Decision denied = decided(memo.decide(noWrite));
        assertFalse(denied.allow(), "a setting that changed must not be answered from the other input's entry");
        assertEquals("capability_missing", denied.reasons().get(0).code());
        assertEquals(2, memo.size());
    }

    @Test
    void toolListsAreMemoisedPerCallerFacts() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        MemoizingPdp memo = MemoizingPdp.over(engine, new MemoConfiguration(), meters);
        DecisionInput listing = DecisionInput.forListing(Facts.a1());
        VisibleTools fresh = (VisibleTools) assertInstanceOf(PolicyOutcome.Decided.class,
                engine.visibleTools(listing)).value();
        for (int i = 0; i < 3; i++) {
            VisibleTools tools = (VisibleTools) assertInstanceOf(PolicyOutcome.Decided.class,
                    memo.visibleTools(listing)).value();
            assertEquals(fresh.names(), tools.names());
        }
        assertEquals(2.0, count(meters, "visible_tools", "hit"));
        assertEquals(1.0, count(meters, "visible_tools", "miss"));
    }

    @Test
    void faultsAreNeverMemoised(@TempDir Path dir) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        MemoizingPdp none = MemoizingPdp.over(engine(dir.resolve("absent.tar.gz")), new MemoConfiguration(), meters);
        MemoizingPdp memo = MemoizingPdp.over(engine, new MemoConfiguration(), meters);
        Object deep = "leaf";
        for (int level = 0; level < 600; level++) {
            deep = Map.of("n", deep);
        }
        DecisionInput unwritable = Facts.call("wiki_read", Map.of("path", "a.md", "x", deep));
        for (int i = 0; i < 2; i++) {
            assertInstanceOf(PolicyOutcome.Failed.class, none.decide(Facts.call("wiki_read", Map.of("path", "a.md"))));
            assertInstanceOf(PolicyOutcome.Failed.class, none.visibleTools(DecisionInput.forListing(Facts.a1())));
            assertInstanceOf(PolicyOutcome.Failed.class, memo.decide(unwritable));
        }
        assertEquals(0, none.size());
        assertEquals(0, memo.size());
        assertEquals(2.0, count(meters, "decision", "skipped"));
        assertEquals(0.0, count(meters, "decision", "hit"));
    }

    @Test
    void argumentsTooDeepToSerialiseAreTheEngineFaultEveryTime() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        MemoizingPdp memo = MemoizingPdp.over(engine, new MemoConfiguration(), meters);
        Map<String, Object> deep = new LinkedHashMap<>();
        Map<String, Object> level = deep;
        for (int i = 0; i < 100_000; i++) {
            Map<String, Object> next = new LinkedHashMap<>();
            level.put("x", next);
            level = next;
        }
        DecisionInput call = Facts.call("wiki_read", deep);
        for (int i = 0; i < 2; i++) {
            assertInstanceOf(PolicyOutcome.Failed.class, memo.decide(call));
        }
        assertEquals(0, memo.size());
    }

    @Test
    void anInputLongerThanTheLimitIsEvaluatedEveryTime() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DecisionInput big = Facts.call("wiki_write", Map.of("path", "a.md", "content", "x".repeat(700)));
        DecisionInput fits = Facts.call("wiki_write", Map.of("path", "a.md", "content", "x"));
        MemoConfiguration small = new MemoConfiguration();
        small.setMaxInputChars(PolicyJson.write(DecisionInputMapper.forCall(fits)).length());
        MemoizingPdp memo = MemoizingPdp.over(engine, small, meters);
        for (int i = 0; i < 2; i++) {
            assertTrue(decided(memo.decide(big)).allow());
            assertTrue(decided(memo.decide(fits)).allow());
        }
        assertEquals(2.0, count(meters, "decision", "skipped"));
        assertEquals(1.0, count(meters, "decision", "hit"));
        assertEquals(1, memo.size());
    }

    @Test
    void theSizeIsBounded() {
        MemoConfiguration tiny = new MemoConfiguration();
        tiny.setMaxEntries(8);
        MemoizingPdp memo = MemoizingPdp.over(engine, tiny, new SimpleMeterRegistry());
        for (int i = 0; i < 50; i++) {
            decided(memo.decide(Facts.call("wiki_read", Map.of("path", "p" + i + ".md"))));
        }
        assertTrue(memo.size() <= 8, "held " + memo.size());
    }

    /**
     * A bundle swap: the same input first decided by the real bundle, then by one whose access table lacks the tool.
     * The memo must answer the second with the new bundle's denial, not the old allow.
     */
    @Test
    void aNewRevisionNeverSeesAnOldAnswer(@TempDir Path dir) throws IOException {
        Path policies = dir.resolve("policies");
        copyTree(TestBundle.policies(), policies);
        Path table = policies.resolve("gatehouse/access_table/data.json");
        ObjectNode rows = (ObjectNode) PolicyJson.MAPPER.readTree(table.toFile());
        rows.remove("wiki_read");
        Files.writeString(table, PolicyJson.write(rows));
        // The shipped smoke set expects the real table, so this deliberately different bundle ships none.
        Files.delete(policies.resolve("gatehouse/smoke/data.json"));
        Path bundle = dir.resolve("other.tar.gz");
        // Signed with the key of make bundle, as every bundle the embedded engine accepts must be.
        SignedBundles.build(policies, bundle, true, "memo-swap", TestBundle.publicKey().resolveSibling("private.pem"),
                "{\"iat\": " + java.time.Instant.now().getEpochSecond() + "}");
        Swapping swapping = new Swapping(engine, engine(bundle));
        MemoizingPdp memo = new MemoizingPdp(swapping, swapping::revision, new MemoConfiguration(),
                new SimpleMeterRegistry());
        DecisionInput read = Facts.call("wiki_read", Map.of("path", "a.md"));
        Decision before = decided(memo.decide(read));
        assertTrue(before.allow());
        swapping.swap();
        Decision after = decided(memo.decide(read));
        assertFalse(after.allow(), "answered from the old bundle: " + after);
        assertEquals(swapping.status().bundleRevision().orElseThrow(), after.bundleRevision());
        assertNotEquals(before.bundleRevision(), after.bundleRevision());
        assertEquals(1, memo.size(), "the old bundle's entries are flushed");
    }

    private static EmbeddedPdp engine(Path bundle) {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(bundle);
        configuration.setPoolSize(1);
        return new EmbeddedPdp(configuration);
    }

    private static Decision decided(PolicyOutcome<Decision> outcome) {
        return (Decision) assertInstanceOf(PolicyOutcome.Decided.class, outcome, () -> "not decided: " + outcome)
                .value();
    }

    private static double count(SimpleMeterRegistry meters, String entrypoint, String outcome) {
        return meters.get(MemoizingPdp.COUNTER).tag("entrypoint", entrypoint).tag("outcome", outcome).counter()
                .count();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    /** Two real engines behind one, as a bundle hot swap presents them: the revision changes between two calls. */
    private static final class Swapping implements PolicyDecisionPoint {
        private final EmbeddedPdp first;
        private final EmbeddedPdp second;
        private volatile boolean swapped;

        Swapping(EmbeddedPdp first, EmbeddedPdp second) {
            this.first = first;
            this.second = second;
        }

        void swap() {
            swapped = true;
        }

        Optional<EvaluatingPolicy> revision() {
            return (swapped ? second : first).revision();
        }

        @Override
        public Optional<ServedPolicy> serving() {
            return (swapped ? second : first).serving();
        }

        @Override
        public PdpStatus status() {
            return (swapped ? second : first).status();
        }
    }
}
