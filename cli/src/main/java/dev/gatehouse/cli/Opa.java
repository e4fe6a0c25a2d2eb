package dev.gatehouse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The pinned {@code opa} binary, run as a process: every answer the CLI gives comes from OPA evaluating the policy
 * itself, the same Rego the embedded and remote engines run ("one policy, every engine").
 */
final class Opa {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String PINNED = "v1.22.3";

    private final Path binary;

    private Opa(Path binary) {
        this.binary = binary;
    }

    Path binary() {
        return binary;
    }

    /** {@code --opa}, else {@code GATEHOUSE_OPA}, else the cache {@code make opa} fills. */
    static Opa locate(String override) {
        String configured = override != null ? override : System.getenv("GATEHOUSE_OPA");
        Path path = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "gatehouse", "opa-" + PINNED, "opa");
        if (!Files.isExecutable(path)) {
            throw new CliException("no OPA binary at " + path + " (run: make opa, or set GATEHOUSE_OPA)");
        }
        return new Opa(path);
    }

    /** The value of {@code query} for {@code input}, or a missing node when it is undefined. */
    JsonNode eval(PolicySource source, String query, JsonNode input) {
        return eval(source, null, query, input);
    }

    /**
     * The same with one more Rego module loaded beside the policy (package {@code gatehouse_cli}, outside the
     * bundle's root). Many decisions in one evaluation go through such a module: its rules bind each
     * {@code with input as} value to a variable first. (In a query-level comprehension OPA v1.22.3 evaluates a
     * {@code with} value that reads {@code input} against the replaced input, so the query form gives wrong answers.)
     */
    JsonNode eval(PolicySource source, String module, String query, JsonNode input) {
        Path inputFile = null;
        Path moduleFile = null;
        try {
            inputFile = Files.createTempFile("gatehouse-input-", ".json");
            JSON.writeValue(inputFile.toFile(), input);
            List<String> command = new ArrayList<>(List.of(binary.toString(), "eval", "--format", "json"));
            command.addAll(source.opaArgs());
            if (module != null) {
                moduleFile = Files.createTempFile("gatehouse-cli-", ".rego");
                Files.writeString(moduleFile, module);
                command.addAll(List.of("-d", moduleFile.toString()));
            }
            command.addAll(List.of("-i", inputFile.toString(), query));
            JsonNode out = JSON.readTree(run(command));
            JsonNode value = out.path("result").path(0).path("expressions").path(0).path("value");
            return value.isMissingNode() ? MissingNode.getInstance() : value;
        } catch (IOException e) {
            throw new CliException("opa eval failed: " + e.getMessage());
        } finally {
            deleteQuietly(inputFile);
            deleteQuietly(moduleFile);
        }
    }

    /** {@code opa inspect -a}: the manifest, namespaces and every METADATA annotation. */
    JsonNode inspect(Path target) {
        try {
            return JSON.readTree(run(List.of(binary.toString(), "inspect", "-a", "--format", "json", target.toString())));
        } catch (IOException e) {
            throw new CliException("opa inspect failed: " + e.getMessage());
        }
    }

    private static String run(List<String> command) throws IOException {
        Path err = Files.createTempFile("gatehouse-opa-", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int rc = p.waitFor();
            if (rc != 0) {
                String detail = (Files.readString(err) + "\n" + out).strip();
                throw new CliException("opa exited with " + rc + ": " + String.join(" ", command) + "\n" + detail);
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted while running opa");
        } finally {
            Files.deleteIfExists(err);
        }
    }

    static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temp file left behind is harmless
            }
        }
    }
}
