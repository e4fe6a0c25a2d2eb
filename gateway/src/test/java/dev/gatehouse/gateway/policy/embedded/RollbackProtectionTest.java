package dev.gatehouse.gateway.policy.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.bundle.AcceptedRevisions;
import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.SignedBundles;
import dev.gatehouse.gateway.support.Slow;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rollback protection that holds whoever signs (issue "Nothing lost, nothing rolled back"; EmbeddedPdp class
 * comment): every row of the table is a bundle signed by the real {@code opa build} and offered to a real engine.
 * The floor here is one {@link AcceptedRevisions} shared by the engines of a test, as PostgreSQL shares it between
 * replicas and restarts ({@code AcceptedRevisionsTest} runs the same against PostgreSQL).
 */
@Slow
class RollbackProtectionTest {

    /** The gateway's clock in this test; bundles are signed relative to it. */
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    @TempDir
    static Path dir;

    private static SignedBundles.Keys keys;
    private static Path withoutIat;
    private static Path older;
    private static Path newer;
    private static Path newerAgain;
    private static Path withinLeeway;
    private static Path future;

    @BeforeAll
    static void sign() throws Exception {
        keys = SignedBundles.keys(dir.resolve("keys"));
        Path policies = SignedBundles.policiesCopy(dir.resolve("src"));
        // What plain `opa build --signing-key` makes: signed, no iat claim.
        withoutIat = SignedBundles.build(policies, dir.resolve("no-iat.tar.gz"), true, "no-iat", keys.privateKey(),
                null);
        older = signed(policies, "older", NOW.minusSeconds(3600));
        newer = signed(policies, "newer", NOW.minusSeconds(60));
        newerAgain = signed(policies, "newer-again", NOW.minusSeconds(60));
        withinLeeway = signed(policies, "within-leeway", NOW.plusSeconds(30));
        future = signed(policies, "future", NOW.plusSeconds(3600));
    }

    private static Path signed(Path policies, String revision, Instant iat) throws Exception {
        return SignedBundles.build(policies, dir.resolve(revision + ".tar.gz"), true, revision, keys.privateKey(),
                "{\"iat\": " + iat.getEpochSecond() + "}");
    }

    private static EmbeddedPdp replica(Path bundle, AcceptedRevisions floor, boolean allowRollback) {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(bundle);
        configuration.setVerificationKey(keys.publicKey().toString());
        configuration.setAllowRollback(allowRollback);
        configuration.setPoolSize(1);
        return new EmbeddedPdp(configuration, new SimpleMeterRegistry(), contents -> List.of(), floor,
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static String refusal(Activation activation) {
        return assertInstanceOf(Activation.Refused.class, activation).reason();
    }

    @Test
    void aSignedBundleWithoutIatIsRefusedUnlessRollbackIsAllowed() throws Exception {
        EmbeddedPdp pdp = replica(newer, AcceptedRevisions.inMemory(), false);
        String reason = refusal(pdp.offer(BundleArchive.read(withoutIat)));
        assertTrue(reason.contains("signed without iat"), reason);
        assertEquals(Optional.of("newer"), pdp.status().bundleRevision());

        EmbeddedPdp alone = replica(withoutIat, AcceptedRevisions.inMemory(), false);
        assertFalse(alone.status().healthy(), "start-up with it fails closed");
        assertTrue(alone.status().fault().orElseThrow().detail().contains("signed without iat"));

        EmbeddedPdp development = replica(newer, AcceptedRevisions.inMemory(), true);
        assertEquals(new Activation.Activated("no-iat", "newer"),
                development.offer(BundleArchive.read(withoutIat)));
    }

    @Test
    void anOlderRevisionIsRefusedAnEqualOneAccepted() throws Exception {
        EmbeddedPdp pdp = replica(newer, AcceptedRevisions.inMemory(), false);
        assertTrue(refusal(pdp.offer(BundleArchive.read(older))).contains("before the newest revision ever accepted"));
        assertEquals(new Activation.Activated("newer-again", "newer"), pdp.offer(BundleArchive.read(newerAgain)));
    }

    @Test
    void anIatBeyondTheLeewayIsRefusedEvenWhenRollbackIsAllowed() throws Exception {
        for (boolean allowRollback : new boolean[] {false, true}) {
            AcceptedRevisions floor = AcceptedRevisions.inMemory();
            EmbeddedPdp pdp = replica(newer, floor, allowRollback);
            assertTrue(refusal(pdp.offer(BundleArchive.read(future))).contains("in the future"));
            assertEquals(new Activation.Activated("within-leeway", "newer"),
                    pdp.offer(BundleArchive.read(withinLeeway)));
            if (!allowRollback) {
                assertEquals(Optional.of(NOW.plusSeconds(30)), floor.newest(), "the floor follows what was accepted");
            }
        }
    }

    /** The floor is the newest ever accepted, not the serving one: a restart or another replica agrees. */
    @Test
    void aRestartAndASecondReplicaRefuseWhatIsOlderThanTheFloor() throws Exception {
        AcceptedRevisions floor = AcceptedRevisions.inMemory();
        EmbeddedPdp first = replica(older, floor, false);
        assertEquals(new Activation.Activated("newer", "older"), first.offer(BundleArchive.read(newer)));

        EmbeddedPdp restarted = replica(older, floor, false);
        assertFalse(restarted.status().healthy(), "the stale file on disk is not served after a restart");
        assertTrue(restarted.status().fault().orElseThrow().detail().contains("before the newest revision"));

        EmbeddedPdp second = replica(newer, floor, false);
        assertTrue(refusal(second.offer(BundleArchive.read(older))).contains("before the newest revision"));
        assertEquals(Optional.of("newer"), second.status().bundleRevision());
    }

    @Test
    void aFloorThatCannotBeReadDefersTheOfferAndTheSameBundleActivatesLater() throws Exception {
        AtomicBoolean down = new AtomicBoolean(true);
        AcceptedRevisions memory = AcceptedRevisions.inMemory();
        AcceptedRevisions flaky = new AcceptedRevisions() {
            @Override
            public Optional<Instant> newest() {
                if (down.get()) {
                    throw new IllegalStateException("store down");
                }
                return memory.newest();
            }

            @Override
            public boolean accept(Instant signedAt, String revision) {
                return memory.accept(signedAt, revision);
            }
        };
        EmbeddedPdp pdp = replica(older, flaky, false);
        assertFalse(pdp.status().healthy());
        Activation deferred = pdp.offer(BundleArchive.read(newer));
        assertTrue(assertInstanceOf(Activation.Deferred.class, deferred).reason().contains("offered again"));
        down.set(false);
        assertEquals(new Activation.Activated("newer", "none"), pdp.offer(BundleArchive.read(newer)));
    }
}
