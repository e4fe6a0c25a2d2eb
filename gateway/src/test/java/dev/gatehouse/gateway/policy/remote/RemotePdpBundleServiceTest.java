package dev.gatehouse.gateway.policy.remote;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.bundle.SignedBundles;
import dev.gatehouse.gateway.support.Facts;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote engine follows the same revisions: a real OPA polls the bundle service (its own bundle plugin, with
 * the same public key), and the gateway reports the revision OPA's decisions name. A tampered bundle is refused
 * by OPA as by the embedded engine, and the serving revision keeps serving.
 */
class RemotePdpBundleServiceTest {

    private static final String RESOURCE = "/bundles/rego-bundle.tar.gz";

    @TempDir
    Path dir;

    @Test
    void opaPollsTheServiceAndDecisionsNameTheRevisionItServes() throws Exception {
        SignedBundles.Keys keys = SignedBundles.keys(dir.resolve("keys"));
        Path policies = SignedBundles.policiesCopy(dir.resolve("src"));
        byte[] r1 = Files.readAllBytes(SignedBundles.build(policies, dir.resolve("r1.tar.gz"), false, "r1",
                keys.privateKey(), "{\"iat\": 1000}"));
        byte[] r2 = Files.readAllBytes(SignedBundles.build(policies, dir.resolve("r2.tar.gz"), false, "r2",
                keys.privateKey(), "{\"iat\": 2000}"));
        Path r3 = SignedBundles.build(policies, dir.resolve("r3.tar.gz"), false, "r3", keys.privateKey(),
                "{\"iat\": 3000}");
        byte[] tampered = Files.readAllBytes(SignedBundles.tamper(r3, dir.resolve("r3-tampered.tar.gz"), entries -> {
            Map<String, byte[]> copy = new java.util.LinkedHashMap<>(entries);
            copy.put("/extra.txt", "not signed".getBytes());
            return copy;
        }));

        WireMockServer service = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
        service.start();
        Process opa = null;
        try {
            service.stubFor(get(urlEqualTo(RESOURCE)).willReturn(aResponse().withStatus(200).withBody(r1)));
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            Path config = Files.writeString(dir.resolve("opa-config.yaml"), """
                    services:
                      bundles:
                        url: %s
                        credentials:
                          bearer:
                            token: service-token
                    bundles:
                      gatehouse:
                        service: bundles
                        resource: %s
                        polling: {min_delay_seconds: 1, max_delay_seconds: 1}
                        signing: {keyid: default}
                    keys:
                      default:
                        algorithm: RS256
                        key: |
                    %s
                    """.formatted(service.baseUrl(), RESOURCE, Files.readString(keys.publicKey()).indent(10)));
            opa = new ProcessBuilder(List.of(TestBundle.opa().toString(), "run", "--server", "--addr",
                    "127.0.0.1:" + port, "--log-level", "error", "-c", config.toString()))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("opa.log").toFile()).start();
            RemotePdpConfiguration configuration = new RemotePdpConfiguration();
            configuration.setUrl("http://127.0.0.1:" + port);
            configuration.setDeadline(Duration.ofSeconds(2));
            RemotePdp pdp = new RemotePdp(configuration);

            awaitRevision(pdp, "r1");
            service.verify(getRequestedFor(urlEqualTo(RESOURCE)).withHeader("Authorization",
                    equalTo("Bearer service-token")));
            service.stubFor(get(urlEqualTo(RESOURCE)).willReturn(aResponse().withStatus(200).withBody(r2)));
            awaitRevision(pdp, "r2");

            service.stubFor(get(urlEqualTo(RESOURCE)).willReturn(aResponse().withStatus(200).withBody(tampered)));
            int before = service.findAll(getRequestedFor(urlEqualTo(RESOURCE))).size();
            await(() -> service.findAll(getRequestedFor(urlEqualTo(RESOURCE))).size() >= before + 2,
                    "two polls of the tampered bundle");
            assertEquals("r2", revision(pdp).orElseThrow(), "OPA refused the tampered bundle and kept r2");
            assertEquals(Optional.of("r2"), pdp.status().bundleRevision());
            pdp.close();
        } finally {
            if (opa != null) {
                opa.destroy();
                if (!opa.waitFor(10, TimeUnit.SECONDS)) {
                    opa.destroyForcibly().waitFor();
                }
            }
            service.stop();
        }
    }

    private static Optional<String> revision(RemotePdp pdp) {
        PolicyOutcome<Decision> outcome = pdp.decide(new DecisionInput(Optional.of("wiki_read"),
                Optional.of(Map.of("path", "page.md")), List.of(), Facts.a1(), Map.of()));
        return outcome instanceof PolicyOutcome.Decided<Decision> decided
                ? Optional.of(decided.value().bundleRevision()) : Optional.empty();
    }

    private static void awaitRevision(RemotePdp pdp, String revision) throws InterruptedException {
        await(() -> revision(pdp).equals(Optional.of(revision)), "OPA serving " + revision);
    }

    /** Waits for a condition; the bound only keeps a broken build from hanging. */
    private static void await(Supplier<Boolean> condition, String what) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("never reached: " + what);
            }
            Thread.sleep(100);
        }
    }
}
