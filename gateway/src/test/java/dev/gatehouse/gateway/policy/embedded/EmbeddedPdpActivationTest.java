package dev.gatehouse.gateway.policy.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.SignedBundles;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.support.Slow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Activation of new revisions (EmbeddedPdp class comment): a verified, self-tested revision replaces the serving
 * one whole; a refused one (older, unverifiable, failing its smoke cases) leaves the serving one serving and says
 * why; decisions racing a swap are each wholly one revision and none fails.
 */
@Slow
class EmbeddedPdpActivationTest {

    private static final CallerFacts CALLER = Facts.a1();

    @TempDir
    static Path dir;

    private static SignedBundles.Keys keys;
    private static Path r1;
    private static Path r2;
    private static Path failsSmoke;
    private static Path otherKey;
    private static Path withoutEntrypoint;

    @BeforeAll
    static void buildRevisions() throws Exception {
        keys = SignedBundles.keys(dir.resolve("keys"));
        Path policies = SignedBundles.policiesCopy(dir.resolve("src"));
        r1 = SignedBundles.build(policies, dir.resolve("r1.tar.gz"), true, "r1", keys.privateKey(), "{\"iat\": 1000}");
        r2 = SignedBundles.build(policies, dir.resolve("r2.tar.gz"), true, "r2", keys.privateKey(), "{\"iat\": 2000}");
        otherKey = SignedBundles.build(policies, dir.resolve("other.tar.gz"), true, "r9",
                SignedBundles.keys(dir.resolve("other-keys")).privateKey(), "{\"iat\": 9000}");
        // a revision whose shipped smoke set disagrees with its policy: the first case (an allow) expects a denial
        Path smoke = policies.resolve("gatehouse/smoke/data.json");
        ObjectNode cases = (ObjectNode) PolicyJson.MAPPER.readTree(smoke.toFile());
        ObjectNode first = (ObjectNode) cases.withArray("cases").get(0).get("expected");
        assertTrue(first.get("allow").booleanValue(), "the first smoke case is an allow");
        first.put("allow", false);
        first.putArray("reasons").addObject().put("code", "unknown_tool").put("message", "expected by mistake");
        Files.writeString(smoke, PolicyJson.write(cases));
        failsSmoke = SignedBundles.build(policies, dir.resolve("fails-smoke.tar.gz"), true, "r3", keys.privateKey(),
                "{\"iat\": 3000}");
        // a revision whose enforcement document is no entry point: the gateway could not read what it enforces
        Path unexported = SignedBundles.policiesCopy(dir.resolve("unexported"));
        Path decision = unexported.resolve("decision/decision.rego");
        String rego = Files.readString(decision);
        String annotated = "# entrypoint: true\nenforcement := {";
        assertTrue(rego.contains(annotated), "decision.rego annotates the enforcement entry point");
        Files.writeString(decision, rego.replace(annotated, "enforcement := {"));
        withoutEntrypoint = SignedBundles.build(unexported, dir.resolve("no-entrypoint.tar.gz"), true, "r4",
                keys.privateKey(), "{\"iat\": 4000}");
    }

    @Test
    void aRevisionWithoutAnEntryPointTheGatewayAsksIsRefused() throws Exception {
        EmbeddedPdp pdp = pdp(r1, false);
        String reason = assertInstanceOf(Activation.Refused.class, pdp.offer(BundleArchive.read(withoutEntrypoint)))
                .reason();
        assertTrue(reason.contains("does not export entrypoint gatehouse/authz/enforcement"), reason);
        assertEquals("r1", revisionOfADecision(pdp));
    }

    @Test
    void aNewerRevisionReplacesTheServingOneAndDecisionsCarryIt() throws Exception {
        EmbeddedPdp pdp = pdp(r1, false);
        assertEquals("r1", revisionOfADecision(pdp));
        Activation activation = pdp.offer(BundleArchive.read(r2));
        assertEquals(new Activation.Activated("r2", "r1"), activation);
        assertEquals("r2", revisionOfADecision(pdp));
        assertEquals(Optional.of("default"), decision(pdp).bundleKeyId());
        assertEquals(Optional.of("r2"), pdp.status().bundleRevision());
        assertEquals(new Activation.Unchanged("r2"), pdp.offer(BundleArchive.read(r2)));
    }

    @Test
    void anOlderRevisionIsRefusedUnlessRollbackIsAllowed() throws Exception {
        EmbeddedPdp pdp = pdp(r2, false);
        Activation refused = pdp.offer(BundleArchive.read(r1));
        assertTrue(assertInstanceOf(Activation.Refused.class, refused).reason().contains("before the newest revision ever accepted"),
                refused.toString());
        assertEquals("r2", revisionOfADecision(pdp));
        assertTrue(pdp.status().healthy());
        assertTrue(pdp.status().lastRefusal().orElseThrow().detail().contains("allow-rollback"));

        EmbeddedPdp rollingBack = pdp(r2, true);
        assertEquals(new Activation.Activated("r1", "r2"), rollingBack.offer(BundleArchive.read(r1)));
        assertEquals("r1", revisionOfADecision(rollingBack));
    }

    @Test
    void aRevisionFailingItsSmokeCasesLeavesTheOldOneServing() throws Exception {
        EmbeddedPdp pdp = pdp(r1, false);
        Activation refused = pdp.offer(BundleArchive.read(failsSmoke));
        String reason = assertInstanceOf(Activation.Refused.class, refused).reason();
        assertTrue(reason.contains("smoke case") && reason.contains("got allow=true"), reason);
        assertEquals("r1", revisionOfADecision(pdp));
        assertTrue(pdp.status().healthy());
    }

    @Test
    void aRevisionSignedByAnotherKeyLeavesTheOldOneServing() throws Exception {
        EmbeddedPdp pdp = pdp(r1, false);
        Activation refused = pdp.offer(BundleArchive.read(otherKey));
        assertTrue(assertInstanceOf(Activation.Refused.class, refused).reason().contains("does not verify"));
        assertEquals("r1", revisionOfADecision(pdp));
    }

    @Test
    void withoutAVerifiedBundleTheStatusSaysNotReadyAndWhy() throws Exception {
        EmbeddedPdp pdp = pdp(otherKey, false);
        assertTrue(!pdp.status().healthy());
        String detail = pdp.status().fault().orElseThrow().detail();
        assertTrue(detail.startsWith("not ready: no verified bundle"), detail);
        assertTrue(detail.contains("does not verify"), detail);
        assertEquals(new Activation.Activated("r1", "none"), pdp.offer(BundleArchive.read(r1)));
        assertTrue(pdp.status().healthy());
    }

    @Test
    void decisionsRacingSwapsAreEachWhollyOneRevisionAndNoneFails() throws Exception {
        EmbeddedPdp pdp = pdp(r1, true);
        BundleArchive first = BundleArchive.read(r1);
        BundleArchive second = BundleArchive.read(r2);
        AtomicBoolean swapping = new AtomicBoolean(true);
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger decided = new AtomicInteger();
        Set<String> revisions = ConcurrentHashMap.newKeySet();
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> running = List.of(1, 2).stream().<Future<?>>map(i -> callers.submit(() -> {
                while (swapping.get()) {
                    PolicyOutcome<Decision> outcome = pdp.decide(input());
                    if (outcome instanceof PolicyOutcome.Decided<Decision> d) {
                        revisions.add(d.value().bundleRevision());
                        decided.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                    }
                }
            })).toList();
            for (int swap = 0; swap < 3; swap++) {
                Activation activation = pdp.offer(swap % 2 == 0 ? second : first);
                assertInstanceOf(Activation.Activated.class, activation);
            }
            swapping.set(false);
            for (Future<?> future : running) {
                future.get();
            }
        } finally {
            callers.shutdownNow();
        }
        assertEquals(0, failed.get(), "decisions that failed during the swaps");
        assertTrue(decided.get() > 0);
        assertEquals(Set.of("r1", "r2"), revisions);
        assertEquals("r2", revisionOfADecision(pdp), "the last swap (to r2) serves");
    }

    private static EmbeddedPdp pdp(Path bundle, boolean allowRollback) {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(bundle);
        configuration.setVerificationKey(keys.publicKey().toString());
        configuration.setAllowRollback(allowRollback);
        configuration.setPoolSize(2);
        return new EmbeddedPdp(configuration);
    }

    private static String revisionOfADecision(EmbeddedPdp pdp) {
        return decision(pdp).bundleRevision();
    }

    private static Decision decision(EmbeddedPdp pdp) {
        return (Decision) assertInstanceOf(PolicyOutcome.Decided.class, pdp.decide(input())).value();
    }

    private static DecisionInput input() {
        return new DecisionInput(Optional.of("wiki_read"), Optional.of(Map.of("path", "page.md")), List.of(),
                CALLER, Map.of());
    }
}
