package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

    /** {@code opa build -b policies --revision <revision> -o <target>}: a plain (Rego) bundle for {@code opa run}. */
    public static void buildRegoBundle(String revision, Path target) {
        List<String> command = List.of(TestBundle.opa().toString(), "build", "-b", TestBundle.policies().toString(),
                "--revision", revision, "-o", target.toString());
        build(command);
    }

    /**
     * {@code opa build -t wasm --revision fault-test} of {@code policyDir} with every {@code Entrypoint}: an
     * unsigned Wasm bundle for fault tests.
     */
    public static void buildWasmBundle(Path policyDir, Path target) {
        buildWasmBundle(policyDir, target, List.of("--revision", "fault-test"));
    }

    /** {@code opa build -t wasm} of {@code policyDir} with every {@code Entrypoint} and further options. */
    public static void buildWasmBundle(Path policyDir, Path target, List<String> options) {
        List<String> command = new ArrayList<>(List.of(TestBundle.opa().toString(), "build", "-t", "wasm",
                "-b", policyDir.toString(), "-o", target.toString()));
        command.addAll(options);
        for (Entrypoint entrypoint : Entrypoint.values()) {
            command.addAll(List.of("-e", entrypoint.path()));
        }
        build(command);
    }

    private static void build(List<String> command) {
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
}
