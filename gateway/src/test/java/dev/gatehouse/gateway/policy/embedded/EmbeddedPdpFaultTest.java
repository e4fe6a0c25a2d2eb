package dev.gatehouse.gateway.policy.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.OpaCli;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.bundle.AcceptedRevisions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fail closed: a bundle the engine cannot use leaves the PDP up, denying every call with
 * {@code bundle_unavailable} and saying why in its status; an engine error on one call is a fault for that call.
 */
class EmbeddedPdpFaultTest {

    private static final CallerFacts CALLER = Facts.a1();

    @TempDir
    Path dir;

    @Test
    void aMissingBundleDeniesEverything() {
        assertUnavailable(pdpFor(dir.resolve("nothing-here.tar.gz")), "does not exist");
    }

    @Test
    void randomBytesDenyEverything() throws IOException {
        byte[] noise = new byte[4096];
        new Random(17).nextBytes(noise);
        Path file = Files.write(dir.resolve("noise.tar.gz"), noise);
        assertUnavailable(pdpFor(file), "not a readable gzipped tar");
    }

    @Test
    void aTarballWithoutPolicyWasmDeniesEverything() throws IOException {
        Path file = tarball("no-wasm.tar.gz", Map.of("data.json", "{}".getBytes(StandardCharsets.UTF_8)));
        assertUnavailable(pdpFor(file), "has no /policy.wasm");
    }

    @Test
    void aCorruptModuleDeniesEverything() throws IOException {
        Path file = tarball("corrupt.tar.gz", Map.of("policy.wasm", "\0asm but not really".getBytes(
                StandardCharsets.UTF_8), "data.json", "{}".getBytes(StandardCharsets.UTF_8)));
        assertUnavailable(pdpFor(file), "cannot be instantiated");
    }

    @Test
    void theRealModuleWithoutItsDataFailsTheSelfTest() throws IOException {
        byte[] wasm = TestBundle.freshWasmBundle().wasm();
        Path file = tarball("no-data.tar.gz", Map.of("policy.wasm", wasm, "data.json",
                "{}".getBytes(StandardCharsets.UTF_8)));
        assertUnavailable(pdpFor(file), "self-test of gatehouse/authz/decision failed");
    }

    /**
     * A smoke case that differs only in its obligations is refused naming both sides' obligations (found by a new
     * user's trial: "expected allow=true reasons=[], got allow=true reasons=[]" showed no difference at all).
     */
    @Test
    void aSmokeCaseThatDiffersInItsObligationsSaysSo() throws IOException {
        WasmBundle bundle = TestBundle.freshWasmBundle();
        ObjectNode data = (ObjectNode) PolicyJson.MAPPER.readTree(bundle.dataJson());
        ObjectNode quota = (ObjectNode) data.path("gatehouse").path("smoke").path("cases").get(0).path("expected")
                .path("obligations").path("quota");
        assertEquals(120, quota.path("burst").asInt(), "the first smoke case expects a quota of burst 120");
        quota.put("burst", 121);
        Path file = tarball("obligations.tar.gz", Map.of("policy.wasm", bundle.wasm(), "data.json",
                PolicyJson.write(data).getBytes(StandardCharsets.UTF_8)));
        assertUnavailable(pdpFor(file), "burst=121");
    }

    @Test
    void aBuiltinTheHostLacksIsAFaultNeverAnAllow() throws IOException {
        Path policies = Files.createDirectories(dir.resolve("policies"));
        Files.writeString(policies.resolve("authz.rego"), """
                package gatehouse.authz

                default decision := {"allow": false, "reasons": [{"code": "unknown_tool", "message": "no"}],
                  "obligations": {}}

                decision := {"allow": true, "reasons": [], "obligations": {}} if {
                  input.tool == "boom"
                  http.send({"method": "get", "url": "http://127.0.0.1:9/"}).status_code == 200
                }

                visible_tools := ["t"]

                enforcement := {
                  "accessTable": {"t": {"toolkit": "wiki", "class": "read", "capability": null, "threadFields": [],
                    "modeFields": {}, "paths": {}}},
                  "toolSchemas": {"t": {"type": "object"}},
                  "reasons": {},
                  "ceilings": [],
                  "modes": {}
                }

                held_capabilities := []

                notice := {"allow": false, "reasons": [{"code": "unavailable", "message": "no"}], "obligations": {}}
                """);
        Path bundle = dir.resolve("builtin.tar.gz");
        OpaCli.buildUncheckedWasmBundle(policies, bundle);
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(bundle);
        configuration.setAllowUnsigned(true);
        configuration.setPoolSize(1);
        // The replacement of the failed instance is built off the request path; the next call waits for it.
        configuration.setDecisionDeadline(java.time.Duration.ofSeconds(60));
        EmbeddedPdp pdp = new EmbeddedPdp(configuration);
        assertTrue(pdp.status().healthy(), "the self-test does not reach the built-in");
        PolicyFault fault = assertInstanceOf(PolicyOutcome.Failed.class, pdp.decide(call("boom"))).fault();
        assertEquals(PolicyFault.EVALUATION_ERROR, fault.code());
        Decision after = (Decision) assertInstanceOf(PolicyOutcome.Decided.class, pdp.decide(call("other")))
                .value();
        assertFalse(after.allow(), "the replacement instance answers the next call");
    }

    /**
     * An input too deep to write is that call's {@code evaluation_error}, found before an instance is borrowed: the
     * pool's borrow timer counts no borrow for it (a borrowed instance that failed would be dropped and rebuilt).
     */
    @Test
    void inputTooDeepToSerialiseIsAFaultAndBorrowsNoInstance() {
        Map<String, Object> deep = new HashMap<>();
        Map<String, Object> level = deep;
        for (int i = 0; i < 5_000; i++) {
            Map<String, Object> next = new HashMap<>();
            level.put("k", next);
            level = next;
        }
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(TestBundle.freshBundle());
        configuration.setAllowUnsigned(true);
        configuration.setPoolSize(1);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        EmbeddedPdp pdp = new EmbeddedPdp(configuration, meters, contents -> List.of(), AcceptedRevisions.inMemory(),
                Clock.systemUTC());
        assertInstanceOf(PolicyOutcome.Decided.class, pdp.decide(call("wiki_read")));
        long borrowed = borrows(meters);
        PolicyOutcome<Decision> outcome = pdp.decide(new DecisionInput(Optional.of("wiki_read"),
                Optional.of(deep), List.of(), CALLER, Map.of()));
        assertEquals(PolicyFault.EVALUATION_ERROR,
                assertInstanceOf(PolicyOutcome.Failed.class, outcome).fault().code());
        assertEquals(borrowed, borrows(meters), "the unwritable input borrowed an instance");
        assertInstanceOf(PolicyOutcome.Decided.class, pdp.decide(call("wiki_read")));
        assertEquals(borrowed + 1, borrows(meters));
    }

    /** Borrows of a policy instance, lent or not: the timer of the wait for one. */
    private static long borrows(SimpleMeterRegistry meters) {
        return meters.find(EmbeddedPdp.QUEUE_WAIT).timers().stream().mapToLong(t -> t.count()).sum();
    }

    /** A tree given as it is (a replay) that Jackson will not write is a fault of that call, and costs no instance. */
    @Test
    void inputTooDeepToWriteIsAFaultAndTheNextCallIsDecided() {
        ObjectNode input = PolicyJson.MAPPER.createObjectNode();
        ObjectNode level = input;
        for (int i = 0; i < 5_000; i++) {
            level = level.putObject("k");
        }
        EmbeddedPdp pdp = pdpFor(TestBundle.freshBundle());
        PolicyOutcome<JsonNode> outcome = pdp.revision().orElseThrow().evaluate("gatehouse/authz/decision", input);
        assertEquals(PolicyFault.EVALUATION_ERROR,
                assertInstanceOf(PolicyOutcome.Failed.class, outcome).fault().code());
        assertInstanceOf(PolicyOutcome.Decided.class, pdp.decide(call("wiki_read")));
    }

    private static void assertUnavailable(EmbeddedPdp pdp, String why) {
        PdpStatus status = pdp.status();
        assertFalse(status.healthy());
        assertTrue(status.bundleRevision().isEmpty());
        PolicyFault fault = status.fault().orElseThrow();
        assertEquals(PolicyFault.BUNDLE_UNAVAILABLE, fault.code());
        assertTrue(fault.detail().contains(why), fault.detail());
        assertEquals(fault, assertInstanceOf(PolicyOutcome.Failed.class, pdp.decide(call("wiki_read"))).fault());
        assertEquals(fault, assertInstanceOf(PolicyOutcome.Failed.class,
                pdp.visibleTools(DecisionInput.forListing(CALLER))).fault());
    }

    private static DecisionInput call(String tool) {
        return new DecisionInput(Optional.of(tool), Optional.of(Map.of("path", "page.md")), List.of(), CALLER,
                Map.of());
    }

    /** The fault bundles are unsigned, so they are allowed here; the real bundle still verifies with its key. */
    private static EmbeddedPdp pdpFor(Path bundle) {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(bundle);
        configuration.setAllowUnsigned(true);
        configuration.setPoolSize(1);
        return new EmbeddedPdp(configuration);
    }

    /** A gzipped tar made by the system's {@code tar}, entries named {@code ./<name>}, with a manifest revision. */
    private Path tarball(String name, Map<String, byte[]> entries) throws IOException {
        Path content = Files.createDirectories(dir.resolve(name + ".d"));
        Files.writeString(content.resolve(".manifest"), "{\"revision\": \"fault-test\"}");
        for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
            Files.write(content.resolve(entry.getKey()), entry.getValue());
        }
        Path file = dir.resolve(name);
        try {
            Process tar = new ProcessBuilder("tar", "-czf", file.toString(), "-C", content.toString(), ".")
                    .inheritIO().start();
            assertEquals(0, tar.waitFor());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return file;
    }
}
