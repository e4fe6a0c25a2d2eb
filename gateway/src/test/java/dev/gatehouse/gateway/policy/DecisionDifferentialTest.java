package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One policy, every engine, with and without the memo: seeded generated decision inputs
 * ({@link DecisionInputGenerator}) decided three ways, and all three whole decisions (allow, reasons in order,
 * obligations) must be equal for every input. A plain {@code mvn verify} decides {@value #DEFAULT_COUNT} inputs;
 * {@code make test} decides 100,000 ({@code -Dgatehouse.differential.count}; {@code -Dgatehouse.differential.seed}
 * changes the seed). Go OPA needs several ms per whole decision, which is what bounds the run time.
 * <ul>
 * <li>the {@link MemoizingPdp} in front of an embedded engine (misses evaluate, repeats are answered from the memo);
 * </li>
 * <li>a second embedded engine without memo, asked every time;</li>
 * <li>the pinned Go OPA ({@code opa eval} over the Rego sources in {@code policies/}), evaluating the same
 * {@code data.gatehouse.authz.decision} rule with each input, in batches of {@value #BATCH} inputs per process
 * (the inputs are a data document and the query maps the rule over them with {@code with input as}), two
 * processes at a time while the JVM evaluates the Wasm side.</li>
 * </ul>
 * The run must also show that the inputs reached what they should: allowed calls, every reason code of
 * {@code data.gatehouse.reason_codes}, and memo hits.
 */
class DecisionDifferentialTest {

    static final int DEFAULT_COUNT = 10_000;
    static final int BATCH = 5_000;
    private static final String QUERY = "{sprintf(\"%d\", [i]): d | some i; x := data.differential.inputs[i]; "
            + "d := data.gatehouse.authz.decision with input as x}";

    @Test
    void memoisedFreshAndOpaEvalDecideAlike(@TempDir Path dir) throws Exception {
        int count = Integer.getInteger("gatehouse.differential.count", DEFAULT_COUNT);
        long seed = Long.getLong("gatehouse.differential.seed", 9L);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        MemoConfiguration sizes = new MemoConfiguration();
        sizes.setMaxEntries(50_000);
        MemoizingPdp memo = MemoizingPdp.over(engine(), sizes, meters);
        EmbeddedPdp fresh = engine();
        DecisionInputGenerator generator = new DecisionInputGenerator(seed);

        ExecutorService opa = Executors.newFixedThreadPool(2);
        List<Future<JsonNode>> expected = new ArrayList<>();
        List<List<String>> inputs = new ArrayList<>();
        List<List<JsonNode>> memoised = new ArrayList<>();
        List<List<JsonNode>> evaluated = new ArrayList<>();
        Set<String> codes = new TreeSet<>();
        int allowed = 0;
        long started = System.nanoTime();
        try {
            for (int from = 0; from < count; from += BATCH) {
                int size = Math.min(BATCH, count - from);
                ArrayNode batch = PolicyJson.MAPPER.createArrayNode();
                List<String> batchInputs = new ArrayList<>(size);
                List<JsonNode> batchMemo = new ArrayList<>(size);
                List<JsonNode> batchFresh = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    DecisionInput input = generator.next();
                    ObjectNode json = DecisionInputMapper.forCall(input);
                    batch.add(json);
                    batchInputs.add(PolicyJson.write(json));
                    JsonNode viaMemo = decision(memo.decide(input));
                    batchMemo.add(viaMemo);
                    batchFresh.add(decision(fresh.decide(input)));
                    if (viaMemo.path("allow").asBoolean(false)) {
                        allowed++;
                    }
                    viaMemo.path("reasons").forEach(reason -> codes.add(reason.path("code").asText()));
                }
                Path file = dir.resolve("batch-" + from + ".json");
                ObjectNode document = PolicyJson.MAPPER.createObjectNode();
                document.putObject("differential").set("inputs", batch);
                Files.writeString(file, PolicyJson.write(document));
                expected.add(opa.submit(() -> opaEval(file)));
                inputs.add(batchInputs);
                memoised.add(batchMemo);
                evaluated.add(batchFresh);
            }
            long wasmDone = System.nanoTime();
            List<String> differences = new ArrayList<>();
            int compared = 0;
            for (int b = 0; b < expected.size(); b++) {
                JsonNode byIndex = expected.get(b).get();
                for (int i = 0; i < inputs.get(b).size(); i++) {
                    JsonNode go = byIndex.path(String.valueOf(i));
                    JsonNode viaMemo = memoised.get(b).get(i);
                    JsonNode viaFresh = evaluated.get(b).get(i);
                    compared++;
                    if (!go.equals(viaMemo) || !go.equals(viaFresh)) {
                        differences.add("input " + inputs.get(b).get(i) + "\n  opa eval: " + go + "\n  memo:     "
                                + viaMemo + "\n  fresh:    " + viaFresh);
                    }
                }
            }
            double hits = meters.get(MemoizingPdp.COUNTER).tag("entrypoint", "decision").tag("outcome", "hit")
                    .counter().count();
            System.out.printf("differential: %d inputs (seed %d), %d allowed, codes %s, %.0f memo hits; Wasm side "
                    + "%d s, all %d s%n", compared, seed, allowed, codes, hits, (wasmDone - started) / 1_000_000_000L,
                    (System.nanoTime() - started) / 1_000_000_000L);
            assertEquals(count, compared);
            assertTrue(differences.isEmpty(), differences.size() + " differences, the first: "
                    + String.join("\n", differences.subList(0, Math.min(5, differences.size()))));
            assertTrue(allowed > count / 50, "too few allowed calls: " + allowed);
            assertEquals(reasonCodes(), codes, "every reason code must occur");
            assertTrue(hits > count / 10.0, "too few memo hits: " + hits);
        } finally {
            opa.shutdownNow();
        }
    }

    private static JsonNode decision(PolicyOutcome<Decision> outcome) {
        if (outcome instanceof PolicyOutcome.Decided<Decision> decided) {
            return DecisionJson.decision(decided.value());
        }
        ObjectNode failed = PolicyJson.MAPPER.createObjectNode();
        failed.put("fault", ((PolicyOutcome.Failed<Decision>) outcome).fault().toString());
        return failed;
    }

    private static JsonNode opaEval(Path batch) {
        long start = System.nanoTime();
        try {
            Process process = new ProcessBuilder(TestBundle.opa().toString(), "eval", "--format", "json", "-d",
                    TestBundle.policies().toString(), "-d", batch.toString(), QUERY)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            byte[] out = process.getInputStream().readAllBytes();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("opa eval failed on " + batch + ": "
                        + new String(out, StandardCharsets.UTF_8));
            }
            System.out.printf("opa eval of %s: %d ms%n", batch.getFileName(), (System.nanoTime() - start) / 1_000_000);
            return PolicyJson.MAPPER.readTree(out).path("result").get(0).path("expressions").get(0).get("value");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> reasonCodes() throws IOException {
        Set<String> codes = new TreeSet<>();
        PolicyJson.MAPPER.readTree(TestBundle.policies().resolve("gatehouse/data.json").toFile())
                .path("reason_codes").forEach(code -> codes.add(code.asText()));
        // The notice entry point's codes are not reachable from tools/call inputs; its golden cases are replayed
        // by both Java engines against opa (PdpContractTest).
        codes.removeIf(code -> code.startsWith("notice_"));
        return codes;
    }

    private static EmbeddedPdp engine() {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(TestBundle.freshBundle());
        configuration.setPoolSize(1);
        return new EmbeddedPdp(configuration);
    }
}
