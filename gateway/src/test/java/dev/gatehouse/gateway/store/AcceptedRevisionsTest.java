package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.bundle.AcceptedRevisions;
import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.SignedBundles;
import dev.gatehouse.gateway.policy.embedded.Activation;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.ApplicationContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rollback floor in PostgreSQL (migration V9): it only moves forward, concurrent replicas keep the newest, and
 * engines that share it (replicas, a restart) refuse what is older than anything any of them accepted.
 */
class AcceptedRevisionsTest {

    private static ApplicationContext context;
    private static AcceptedRevisions floor;

    @BeforeAll
    static void start() {
        context = ApplicationContext.run(Map.of("micronaut.server.port", "-1"), "test");
        floor = context.getBean(AcceptedRevisions.class);
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    /** The context's own engine raised the floor to the bundle of make bundle; each test starts from none. */
    @BeforeEach
    void clear() {
        context.getBean(Database.class).update("DELETE FROM accepted_bundle_revision", statement -> {
        });
    }

    @Test
    void theFloorOnlyMovesForward() {
        assertEquals(Optional.empty(), floor.newest());
        assertTrue(floor.accept(Instant.ofEpochSecond(2000), "r2"));
        assertTrue(floor.accept(Instant.ofEpochSecond(2000), "r2-again"), "equal is not older");
        assertFalse(floor.accept(Instant.ofEpochSecond(1999), "r1"));
        assertEquals(Optional.of(Instant.ofEpochSecond(2000)), floor.newest());
        assertTrue(floor.accept(Instant.ofEpochSecond(3000), "r3"));
        assertEquals(Optional.of(Instant.ofEpochSecond(3000)), floor.newest());
    }

    @Test
    void concurrentReplicasKeepTheNewest() throws Exception {
        ExecutorService replicas = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> accepted = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                long iat = 10_000 + (i * 7919L) % 64;
                accepted.add(replicas.submit(() -> floor.accept(Instant.ofEpochSecond(iat), "r" + iat)));
            }
            for (Future<Boolean> one : accepted) {
                one.get();
            }
        } finally {
            replicas.shutdownNow();
        }
        assertEquals(Optional.of(Instant.ofEpochSecond(10_063)), floor.newest());
    }

    @Test
    void replicasAndARestartOnOneDatabaseAgree(@TempDir Path dir) throws Exception {
        SignedBundles.Keys keys = SignedBundles.keys(dir.resolve("keys"));
        Path policies = SignedBundles.policiesCopy(dir.resolve("src"));
        Path older = SignedBundles.build(policies, dir.resolve("older.tar.gz"), true, "older", keys.privateKey(),
                "{\"iat\": 1000}");
        Path newer = SignedBundles.build(policies, dir.resolve("newer.tar.gz"), true, "newer", keys.privateKey(),
                "{\"iat\": 2000}");
        EmbeddedPdp replicaA = engine(older, keys);
        EmbeddedPdp replicaB = engine(older, keys);
        assertEquals(Optional.of("older"), replicaB.status().bundleRevision());
        assertEquals(new Activation.Activated("newer", "older"), replicaA.offer(BundleArchive.read(newer)));

        Activation stale = replicaB.offer(BundleArchive.read(older));
        assertEquals(new Activation.Unchanged("older"), stale, "B keeps what it serves until it is offered more");
        assertEquals(new Activation.Activated("newer", "older"), replicaB.offer(BundleArchive.read(newer)));

        EmbeddedPdp restarted = engine(older, keys);
        assertFalse(restarted.status().healthy(), "a restart on the stale file serves nothing older");
        assertTrue(restarted.status().fault().orElseThrow().detail().contains("before the newest revision"));
        assertEquals(new Activation.Activated("newer", "none"), restarted.offer(BundleArchive.read(newer)));
    }

    private static EmbeddedPdp engine(Path bundle, SignedBundles.Keys keys) {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(bundle);
        configuration.setVerificationKey(keys.publicKey().toString());
        configuration.setPoolSize(1);
        return new EmbeddedPdp(configuration, new SimpleMeterRegistry(), contents -> List.of(), floor,
                Clock.systemUTC());
    }
}
