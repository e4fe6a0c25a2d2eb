package dev.gatehouse.gateway.policy.embedded;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.bundle.SignedBundles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sources of new revisions ({@link BundleWatcher}): an OPA-compatible bundle service (WireMock serving
 * successive revisions, 304s, 5xx, a slow body, a truncated body, a reset connection) and a watched file. Through
 * every fault the serving revision keeps serving, and the next good bundle is activated.
 */
class BundleWatcherTest {

    private static final String RESOURCE = "/bundles/gatehouse.tar.gz";
    private static final String TOKEN = "bundle-service-token";

    @TempDir
    static Path dir;

    private static SignedBundles.Keys keys;
    private static byte[] r1;
    private static byte[] r2;

    private final WireMockServer service = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    private BundleWatcher watcher;

    @BeforeAll
    static void buildRevisions() throws Exception {
        keys = SignedBundles.keys(dir.resolve("keys"));
        Path policies = SignedBundles.policiesCopy(dir.resolve("src"));
        r1 = Files.readAllBytes(SignedBundles.build(policies, dir.resolve("r1.tar.gz"), true, "r1",
                keys.privateKey(), "{\"iat\": 1000}"));
        r2 = Files.readAllBytes(SignedBundles.build(policies, dir.resolve("r2.tar.gz"), true, "r2",
                keys.privateKey(), "{\"iat\": 2000}"));
    }

    @BeforeEach
    void start() {
        service.start();
    }

    @AfterEach
    void stop() {
        if (watcher != null) {
            watcher.close();
        }
        service.stop();
    }

    @Test
    void successiveRevisionsAreActivatedAndAnUnchangedBundleIsNotFetchedAgain() throws Exception {
        String scenario = "revisions";
        // each revision is served until a poll names its ETag (the watcher keeps an ETag only once it activated
        // the bundle); that poll gets a 304 and the service moves on to the next revision
        service.stubFor(get(urlEqualTo(RESOURCE)).atPriority(2).inScenario(scenario)
                .whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(200).withHeader("ETag", "\"e1\"").withBody(r1)));
        service.stubFor(get(urlEqualTo(RESOURCE)).atPriority(1).inScenario(scenario)
                .whenScenarioStateIs(Scenario.STARTED).withHeader("If-None-Match", equalTo("\"e1\""))
                .willReturn(aResponse().withStatus(304)).willSetStateTo("r2"));
        service.stubFor(get(urlEqualTo(RESOURCE)).atPriority(2).inScenario(scenario).whenScenarioStateIs("r2")
                .willReturn(aResponse().withStatus(200).withHeader("ETag", "\"e2\"").withBody(r2)));
        service.stubFor(get(urlEqualTo(RESOURCE)).atPriority(1).inScenario(scenario).whenScenarioStateIs("r2")
                .withHeader("If-None-Match", equalTo("\"e2\""))
                .willReturn(aResponse().withStatus(304)).willSetStateTo("unchanged"));
        service.stubFor(get(urlEqualTo(RESOURCE)).inScenario(scenario).whenScenarioStateIs("unchanged")
                .withHeader("If-None-Match", equalTo("\"e2\"")).willReturn(aResponse().withStatus(304)));

        EmbeddedPdp pdp = watchService();
        awaitRevision(pdp, "r1");
        awaitRevision(pdp, "r2");
        await(() -> service.findAll(getRequestedFor(urlEqualTo(RESOURCE))
                .withHeader("If-None-Match", equalTo("\"e2\""))).size() >= 2, "conditional polls after r2");
        service.verify(getRequestedFor(urlEqualTo(RESOURCE)).withHeader("Authorization",
                equalTo("Bearer " + TOKEN)));
        assertTrue(pdp.status().lastRefusal().isEmpty());
    }

    @Test
    void serverErrorsSlowAndTruncatedBodiesLeaveTheServingRevisionServing() throws Exception {
        String scenario = "faults";
        String[] states = {Scenario.STARTED, "slow", "truncated", "reset", "good"};
        // r1 until it is activated (the watcher keeps an ETag only then), then the faults in turn, then r2
        service.stubFor(get(urlEqualTo(RESOURCE)).atPriority(2).inScenario(scenario).whenScenarioStateIs(states[0])
                .willReturn(aResponse().withStatus(200).withHeader("ETag", "\"e1\"").withBody(r1)));
        service.stubFor(get(urlEqualTo(RESOURCE)).atPriority(1).inScenario(scenario).whenScenarioStateIs(states[0])
                .withHeader("If-None-Match", equalTo("\"e1\""))
                .willReturn(aResponse().withStatus(503)).willSetStateTo(states[1]));
        service.stubFor(get(urlEqualTo(RESOURCE)).inScenario(scenario).whenScenarioStateIs(states[1])
                .willReturn(aResponse().withStatus(200).withBody(r2).withChunkedDribbleDelay(20, 8_000))
                .willSetStateTo(states[2]));
        service.stubFor(get(urlEqualTo(RESOURCE)).inScenario(scenario).whenScenarioStateIs(states[2])
                .willReturn(aResponse().withStatus(200).withBody(Arrays.copyOf(r2, r2.length / 2)))
                .willSetStateTo(states[3]));
        service.stubFor(get(urlEqualTo(RESOURCE)).inScenario(scenario).whenScenarioStateIs(states[3])
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)).willSetStateTo(states[4]));
        service.stubFor(get(urlEqualTo(RESOURCE)).inScenario(scenario).whenScenarioStateIs(states[4])
                .willReturn(aResponse().withStatus(200).withHeader("ETag", "\"e2\"").withBody(r2)));

        EmbeddedPdp pdp = watchService();
        awaitRevision(pdp, "r1");
        // through the faults r1 serves; the good bundle after them is activated
        awaitRevision(pdp, "r2");
        assertEquals("good", service.getAllScenarios().getScenarios().get(0).getState(),
                "r2 came only after every fault was served");
        assertEquals(Optional.of("r2"), pdp.status().bundleRevision());
    }

    @Test
    void aChangedBundleFileIsActivatedWithoutARestart() throws Exception {
        Path file = dir.resolve("watched.tar.gz");
        Files.write(file, r1);
        EmbeddedPdpConfiguration configuration = configuration(file);
        configuration.setBundleWatchInterval(Duration.ofMillis(50));
        EmbeddedPdp pdp = new EmbeddedPdp(configuration);
        assertEquals(Optional.of("r1"), pdp.status().bundleRevision());
        watcher = new BundleWatcher(pdp, configuration, new BundleServiceConfiguration());
        Path next = Files.write(dir.resolve("watched.tmp"), r2);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        awaitRevision(pdp, "r2");
    }

    @Test
    void aCorruptBundleFileIsReportedAndTheServingRevisionKeepsServing() throws Exception {
        for (byte[] corrupt : List.of(flipped(r2, 20), Arrays.copyOf(r2, r2.length / 2), new byte[] {1, 2, 3})) {
            Path file = Files.createTempFile(dir, "corrupt", ".tar.gz");
            Files.write(file, r1);
            EmbeddedPdpConfiguration configuration = configuration(file);
            configuration.setBundleWatchInterval(Duration.ofMillis(50));
            EmbeddedPdp pdp = new EmbeddedPdp(configuration);
            BundleWatcher watching = new BundleWatcher(pdp, configuration, new BundleServiceConfiguration());
            try {
                Path next = Files.write(dir.resolve("corrupt.tmp"), corrupt);
                Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                await(() -> pdp.status().lastRefusal().isPresent(), "the corrupt file reported, " + pdp.status());
                assertTrue(pdp.status().lastRefusal().get().detail().contains("cannot be read"),
                        pdp.status().toString());
                assertEquals(Optional.of("r1"), pdp.status().bundleRevision(), "r1 keeps serving");
            } finally {
                watching.close();
            }
        }
    }

    private static byte[] flipped(byte[] bytes, int at) {
        byte[] copy = bytes.clone();
        copy[at] ^= 0x5a;
        return copy;
    }

    private EmbeddedPdp watchService() throws Exception {
        EmbeddedPdpConfiguration configuration = configuration(dir.resolve("no-such-file.tar.gz"));
        EmbeddedPdp pdp = new EmbeddedPdp(configuration);
        assertTrue(pdp.status().fault().orElseThrow().detail().startsWith("not ready: no verified bundle"));
        BundleServiceConfiguration serviceConfiguration = new BundleServiceConfiguration();
        serviceConfiguration.setUrl(service.baseUrl());
        serviceConfiguration.setResource(RESOURCE);
        serviceConfiguration.setCredentialFile(Files.writeString(Files.createTempFile(dir, "token", ""), TOKEN)
                .toString());
        serviceConfiguration.setMinDelay(Duration.ofMillis(20));
        serviceConfiguration.setMaxDelay(Duration.ofMillis(60));
        serviceConfiguration.setRequestTimeout(Duration.ofMillis(2_000));
        watcher = new BundleWatcher(pdp, configuration, serviceConfiguration);
        return pdp;
    }

    private static EmbeddedPdpConfiguration configuration(Path file) {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(file);
        configuration.setVerificationKey(keys.publicKey().toString());
        configuration.setPoolSize(1);
        return configuration;
    }

    private static void awaitRevision(EmbeddedPdp pdp, String revision) throws InterruptedException {
        await(() -> pdp.status().bundleRevision().equals(Optional.of(revision)), "revision " + revision + " serving, "
                + "status " + pdp.status());
    }

    /** Waits for a condition (not a timing assertion: the bound only keeps a broken build from hanging). */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("never reached: " + what);
            }
            Thread.sleep(20);
        }
    }
}
