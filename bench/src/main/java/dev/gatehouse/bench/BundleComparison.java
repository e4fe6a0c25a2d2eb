package dev.gatehouse.bench;

import com.styra.opa.wasm.OpaPolicy;
import dev.gatehouse.gateway.policy.DecisionInputMapper;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.PolicyJson;
import dev.gatehouse.gateway.policy.api.DecisionInput;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.embedded.BundleReader;
import dev.gatehouse.gateway.policy.embedded.WasmBundle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A policy change measured against its baseline: two or more Wasm bundles (e.g. the previous commit's policies and
 * this one's) decide the same rings of distinct inputs ({@link InputRing}) in alternating rounds of one JVM, so both
 * see the same machine state. Each bundle gets one opa-java-wasm instance with its data loaded, evaluated directly
 * (no pool, no memo, no Java parsing of the result: the Wasm evaluation alone). Before timing, every bundle's
 * result text must equal the first bundle's for every input of the ring, so only a change that decides identically
 * is timed.
 *
 * <p>Arguments: bundle paths (unsigned allowed). Prints, per operation and bundle, the median and the minimum of the
 * per-round means in µs per evaluation. Not part of {@code make bench}; run as shown in bench/notes.md.
 */
public final class BundleComparison {

    private static final int ROUNDS = 15;
    private static final int WARMUP_ROUNDS = 4;
    private static final int PER_ROUND = 8_000;

    private record Operation(String name, InputRing ring, Entrypoint entrypoint,
            Function<DecisionInput, String> marshal) {
    }

    private BundleComparison() {
    }

    public static void main(String[] args) throws BundleException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: BundleComparison <baseline bundle> <bundle>...");
        }
        List<OpaPolicy> policies = new ArrayList<>();
        for (String path : args) {
            WasmBundle bundle = BundleReader.read(Path.of(path), Fixture.configuration(Path.of(path)).verification());
            OpaPolicy policy = OpaPolicy.builder().withPolicy(bundle.wasm()).build();
            policy.data(bundle.dataJson());
            policies.add(policy);
        }
        Function<DecisionInput, String> call = input -> PolicyJson.write(DecisionInputMapper.forCall(input));
        List<Operation> operations = List.of(
                new Operation("launch.allowed", InputRing.launches(), Entrypoint.DECISION, call),
                new Operation("wiki_write.ascii", InputRing.asciiWrites(), Entrypoint.DECISION, call),
                new Operation("wiki_write.cyrillic", InputRing.nonAsciiWrites(InputRing.Script.CYRILLIC),
                        Entrypoint.DECISION, call),
                new Operation("denied", InputRing.denials(), Entrypoint.DECISION, call),
                new Operation("tools_list", InputRing.listings(), Entrypoint.VISIBLE_TOOLS,
                        input -> PolicyJson.write(DecisionInputMapper.forListing(input))));
        for (Operation operation : operations) {
            String[] inputs = Arrays.stream(operation.ring().all()).map(operation.marshal()).toArray(String[]::new);
            for (OpaPolicy policy : policies) {
                policy.entrypoint(operation.entrypoint().path());
            }
            for (String input : inputs) {
                String expected = policies.get(0).evaluate(input);
                for (int p = 1; p < policies.size(); p++) {
                    String got = policies.get(p).evaluate(input);
                    if (!got.equals(expected)) {
                        throw new IllegalStateException(operation.name() + ": " + args[p] + " decides " + got
                                + " where " + args[0] + " decides " + expected + " for " + input);
                    }
                }
            }
            double[][] means = new double[policies.size()][ROUNDS - WARMUP_ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int p = 0; p < policies.size(); p++) {
                    OpaPolicy policy = policies.get(p);
                    long start = System.nanoTime();
                    for (int i = 0; i < PER_ROUND; i++) {
                        policy.evaluate(inputs[i & (InputRing.SIZE - 1)]);
                    }
                    if (round >= WARMUP_ROUNDS) {
                        means[p][round - WARMUP_ROUNDS] = (System.nanoTime() - start) / 1_000.0 / PER_ROUND;
                    }
                }
            }
            for (int p = 0; p < policies.size(); p++) {
                double[] sorted = means[p].clone();
                Arrays.sort(sorted);
                System.out.printf("%-20s %-60s median %7.1f us  min %7.1f us%n", operation.name(), args[p],
                        sorted[sorted.length / 2], sorted[0]);
            }
        }
    }
}
