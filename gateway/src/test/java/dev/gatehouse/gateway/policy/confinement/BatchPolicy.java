package dev.gatehouse.gateway.policy.confinement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.styra.opa.wasm.OpaPolicy;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.embedded.WasmBundle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The real policies, two ways ("one policy, every engine"):
 * <ul>
 * <li>{@link #decideAll}: the pinned Go OPA, one {@code opa eval} per batch of the wiki family's verdict for every
 * input ({@code confinement/batch.rego}); the whole decision costs ≈ 1–5 ms per input in Go, the wiki family alone
 * far less;</li>
 * <li>{@link #decideInWasm}: the served Wasm bundle ({@code make bundle}) in-process with the embedded PDP's library.
 * Each Wasm evaluation recompiles the Unicode classes of the wiki segment rule (≈ 20 ms, bench/results.md), too slow
 * for 10^5 decisions, so the property checks a sample of whole decisions in Wasm against the family's verdict.</li>
 * </ul>
 */
final class BatchPolicy {

    private final Path batchRego;

    private final OpaPolicy wasm;
    private final int decision;

    BatchPolicy(Path work) {
        try {
            batchRego = work.resolve("batch.rego");
            try (var in = BatchPolicy.class.getResourceAsStream("/confinement/batch.rego")) {
                Files.write(batchRego, in.readAllBytes());
            }
            WasmBundle bundle = TestBundle.freshWasmBundle();
            this.wasm = OpaPolicy.builder().withPolicy(bundle.wasm()).build();
            this.decision = wasm.entrypoints().get("gatehouse/authz/decision");
            wasm.data(bundle.dataJson());
        } catch (Exception e) {
            throw new IllegalStateException("cannot load the Wasm bundle", e);
        }
    }

    /**
     * The wiki family's verdict {@code {allow, obligations}} for each input, in order, from one Go OPA evaluation of
     * {@code confinement/batch.rego} over policies/.
     */
    List<JsonNode> decideAll(List<ObjectNode> inputs) {
        ObjectNode input = PolicyJson.MAPPER.createObjectNode();
        ArrayNode cases = input.putArray("cases");
        inputs.forEach(cases::add);
        List<JsonNode> decisions = new ArrayList<>();
        try {
            Process opa = new ProcessBuilder(TestBundle.opa().toString(), "eval", "--format", "json", "-d",
                    TestBundle.policies().toString(), "-d", batchRego.toString(), "-I",
                    "data.gatehouse.testing.batch.verdicts").redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (var stdin = opa.getOutputStream()) {
                stdin.write(PolicyJson.write(input).getBytes(StandardCharsets.UTF_8));
            }
            JsonNode out = PolicyJson.MAPPER.readTree(opa.getInputStream().readAllBytes());
            if (opa.waitFor() != 0) {
                throw new IllegalStateException("opa eval failed");
            }
            out.path("result").get(0).path("expressions").get(0).get("value").forEach(decisions::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (decisions.size() != inputs.size()) {
            throw new IllegalStateException("the batch answered " + decisions.size() + " of " + inputs.size());
        }
        return decisions;
    }

    /** The decision for one input from the Wasm bundle. */
    JsonNode decideInWasm(ObjectNode input) {
        try {
            return PolicyJson.MAPPER.readTree(wasm.entrypoint(decision).evaluate(PolicyJson.write(input)))
                    .get(0).get("result");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
