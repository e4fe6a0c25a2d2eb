package dev.gatehouse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.styra.opa.wasm.OpaPolicy;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.embedded.BundleReader;
import dev.gatehouse.gateway.policy.embedded.WasmBundle;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
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
 * result text must equal the first bundle's for every input of every ring and for every golden case's input
 * ({@code policy-tests/golden/<family>/cases.json}: the hostile and edge inputs, the notice family's through its
 * own entry point), so only a change that decides identically is timed.
 *
 * <p>Arguments: bundle paths (unsigned allowed); {@code -Dgatehouse.compare.only=<prefix>} times only the operations
 * whose name starts with it (every operation's inputs are still compared). Prints, per operation and bundle, the
 * median and the minimum of the per-round means in µs per evaluation. Not part of {@code make bench}; run as shown
 * in bench/notes.md.
 */
public final class BundleComparison {

    private static final int ROUNDS = 15;
    private static final int WARMUP_ROUNDS = 4;
    private static final int PER_ROUND = 8_000;

    /** {@code perRound}: evaluations per bundle and round, fewer for the slowest inputs. */
    private record Operation(String name, InputRing ring, Entrypoint entrypoint,
            Function<DecisionInput, String> marshal, int perRound) {

        Operation(String name, InputRing ring, Entrypoint entrypoint, Function<DecisionInput, String> marshal) {
            this(name, ring, entrypoint, marshal, PER_ROUND);
        }
    }

    private BundleComparison() {
    }

    public static void main(String[] args) throws BundleException, IOException {
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
        int golden = sameOnGoldenInputs(policies, args);
        System.out.printf("%d golden inputs: every bundle decides each as %s does%n", golden, args[0]);
        Function<DecisionInput, String> call = input -> PolicyJson.write(DecisionInputMapper.forCall(input));
        List<Operation> operations = List.of(
                new Operation("launch.allowed", InputRing.launches(), Entrypoint.DECISION, call),
                new Operation("wiki_write.ascii", InputRing.asciiWrites(), Entrypoint.DECISION, call),
                new Operation("wiki_write.cyrillic", InputRing.nonAsciiWrites(InputRing.Script.CYRILLIC),
                        Entrypoint.DECISION, call),
                new Operation("denied", InputRing.denials(), Entrypoint.DECISION, call),
                new Operation("tools_list", InputRing.listings(), Entrypoint.VISIBLE_TOOLS,
                        input -> PolicyJson.write(DecisionInputMapper.forListing(input))),
                sized("project_work_submit.typical", call, PER_ROUND),
                sized("project_work_submit.business_64", call, PER_ROUND / 4),
                sized("wiki_write.path_longest_ascii", call, PER_ROUND / 32));
        String only = System.getProperty("gatehouse.compare.only", "");
        for (Operation operation : operations) {
            String[] inputs = Arrays.stream(operation.ring().all()).map(operation.marshal()).toArray(String[]::new);
            for (OpaPolicy policy : policies) {
                policy.entrypoint(operation.entrypoint().path());
            }
            for (String input : inputs) {
                same(policies, args, operation.name(), input);
            }
            System.out.printf("%s: %d inputs, every bundle decides each as %s does%n", operation.name(),
                    inputs.length, args[0]);
            if (!operation.name().startsWith(only)) {
                continue;
            }
            double[][] means = new double[policies.size()][ROUNDS - WARMUP_ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int p = 0; p < policies.size(); p++) {
                    OpaPolicy policy = policies.get(p);
                    long start = System.nanoTime();
                    for (int i = 0; i < operation.perRound(); i++) {
                        policy.evaluate(inputs[i & (InputRing.SIZE - 1)]);
                    }
                    if (round >= WARMUP_ROUNDS) {
                        means[p][round - WARMUP_ROUNDS] = (System.nanoTime() - start) / 1_000.0
                                / operation.perRound();
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

    /** The {@link ArgumentSizeBenchmark} ring of {@code shape}, repeated to fill an {@link InputRing}. */
    private static Operation sized(String shape, Function<DecisionInput, String> call, int perRound) {
        List<DecisionInput> ring = ArgumentSizeBenchmark.inputs(shape);
        return new Operation(shape, InputRing.of(i -> ring.get(i % ring.size())), Entrypoint.DECISION, call,
                perRound);
    }

    /** Decides every golden case's input with every bundle; returns how many inputs were compared. */
    private static int sameOnGoldenInputs(List<OpaPolicy> policies, String[] args) throws IOException {
        int compared = 0;
        try (DirectoryStream<Path> families = Files.newDirectoryStream(Path.of("policy-tests", "golden"),
                Files::isDirectory)) {
            for (Path family : families) {
                Path cases = family.resolve("cases.json");
                if (!Files.isRegularFile(cases)) {
                    continue;
                }
                Entrypoint entrypoint = family.getFileName().toString().equals("delivery")
                        ? Entrypoint.NOTICE : Entrypoint.DECISION;
                for (OpaPolicy policy : policies) {
                    policy.entrypoint(entrypoint.path());
                }
                for (JsonNode golden : PolicyJson.MAPPER.readTree(cases.toFile()).path("cases")) {
                    same(policies, args, family.getFileName() + "/" + golden.path("name").asText(),
                            PolicyJson.MAPPER.writeValueAsString(golden.path("input")));
                    compared++;
                }
            }
        }
        return compared;
    }

    private static void same(List<OpaPolicy> policies, String[] args, String what, String input) {
        String expected = policies.get(0).evaluate(input);
        for (int p = 1; p < policies.size(); p++) {
            String got = policies.get(p).evaluate(input);
            if (!got.equals(expected)) {
                throw new IllegalStateException(what + ": " + args[p] + " decides " + got + " where " + args[0]
                        + " decides " + expected + " for " + input);
            }
        }
    }
}
