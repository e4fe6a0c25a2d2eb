package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the real {@code opa eval} on the Rego sources in {@code policies/} (topdown, not Wasm). */
public final class OpaCli {

    private OpaCli() {
    }

    /**
     * Evaluates {@code query} with {@code input} on stdin ({@code opa eval -I}).
     *
     * @return the first expression's value, or {@code null} when undefined
     */
    public static JsonNode eval(String query, JsonNode input) {
        List<String> command = new ArrayList<>(List.of(TestBundle.opa().toString(), "eval", "--format", "json",
                "-d", TestBundle.policies().toString(), "-I", query));
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(PolicyJson.write(input).getBytes(StandardCharsets.UTF_8));
            }
            byte[] out = process.getInputStream().readAllBytes();
            assertEquals(0, process.waitFor(), "opa eval failed: " + command);
            JsonNode result = PolicyJson.MAPPER.readTree(out).path("result");
            return result.isEmpty() ? null : result.get(0).path("expressions").get(0).get("value");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The Rego bundle {@code make bundle} builds, unsigned, with {@code revision}: for {@code opa run}. */
    public static void buildRegoBundle(String revision, Path target) {
        build(List.of("-o", target.toString(), "--revision", revision));
    }

    /**
     * The Wasm bundle {@code make bundle} would build from {@code policyDir}, unsigned, revision {@code fault-test}:
     * for fault tests.
     */
    public static void buildWasmBundle(Path policyDir, Path target) {
        buildWasmBundle(policyDir, target, List.of("--revision", "fault-test"));
    }

    /**
     * The Wasm bundle {@code make bundle} would build from {@code policyDir} (scripts/build-bundle.sh), with
     * {@code options}: {@code --revision} first when given, then further {@code opa build} options.
     */
    public static void buildWasmBundle(Path policyDir, Path target, List<String> options) {
        List<String> command = new ArrayList<>(List.of("-o", target.toString(), "--wasm", "--policies",
                policyDir.toString()));
        List<String> rest = new ArrayList<>(options);
        if (rest.size() >= 2 && rest.get(0).equals("--revision")) {
            command.addAll(rest.subList(0, 2));
            rest = rest.subList(2, rest.size());
        }
        command.add("--");
        command.addAll(rest);
        build(command);
    }

    /**
     * A plain {@code opa build -t wasm} of {@code policyDir} with every {@link Entrypoint}, unsigned, revision
     * {@code fault-test}: without staging and without the Wasm capabilities, for a test of what the engine does with a
     * module that calls a built-in its host lacks.
     */
    public static void buildUncheckedWasmBundle(Path policyDir, Path target) {
        List<String> command = new ArrayList<>(List.of(TestBundle.opa().toString(), "build", "-t", "wasm", "-b",
                policyDir.toString(), "--revision", "fault-test", "-o", target.toString()));
        for (Entrypoint entrypoint : Entrypoint.values()) {
            command.addAll(List.of("-e", entrypoint.path()));
        }
        try {
            Process process = new ProcessBuilder(command).inheritIO().start();
            assertEquals(0, process.waitFor(), "opa build failed: " + command);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void build(List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(TestBundle.repo().resolve("scripts/build-bundle.sh")
                .toString()));
        command.addAll(arguments);
        try {
            ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
            builder.environment().put("OPA", TestBundle.opa().toString());
            Process process = builder.start();
            assertEquals(0, process.waitFor(), "opa build failed: " + command);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
