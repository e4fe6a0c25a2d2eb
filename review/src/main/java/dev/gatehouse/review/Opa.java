package dev.gatehouse.review;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.gatehouse.facts.PolicyJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The pinned {@code opa} binary, run as a process: every answer the review gives comes from OPA evaluating the policy
 * itself, the same Rego the embedded and remote engines run ("one policy, every engine"). Each run is bounded: it is
 * killed after the timeout, and an answer longer than {@value #MAX_OUTPUT_BYTES} bytes is refused, so a console that
 * runs it on a gateway host cannot be held or flooded by one explain.
 */
public final class Opa {

    /**
     * Numbers read exactly (a fraction or an exponent as a {@code BigDecimal}, trailing zeros kept), as the gateway
     * reads and logs them: a logged {@code 1E+400} is replayed as that number, not as the string {@code "Infinity"}.
     * A document is one JSON value: anything after it is an error, not ignored; so is a member given twice in an
     * object (which of the two a reader takes is a guess, and no Gatehouse writer repeats one). A member name may be
     * as long as the gateway's reader allows ({@link PolicyJson#READ_CONSTRAINTS}), so whatever its decision log wrote
     * replays here too.
     */
    public static final ObjectMapper JSON = JsonMapper.builder(
                    JsonFactory.builder().streamReadConstraints(PolicyJson.READ_CONSTRAINTS).build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    /** The OPA release every tool of this repository is built and checked with. */
    public static final String PINNED = "v1.22.3";
    /** The longest answer read from one run, in bytes. */
    static final long MAX_OUTPUT_BYTES = 16L * 1024 * 1024;

    private final Path binary;
    private final Duration timeout;

    private Opa(Path binary, Duration timeout) {
        this.binary = binary;
        this.timeout = timeout;
    }

    public Path binary() {
        return binary;
    }

    /**
     * {@code --opa}, else {@code GATEHOUSE_OPA}, else the cache {@code make opa} fills; each run may take 10 min.
     *
     * @throws ReviewException when there is no executable there
     */
    public static Opa locate(String override) {
        String configured = override != null ? override : System.getenv("GATEHOUSE_OPA");
        Path path = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "gatehouse", "opa-" + PINNED, "opa");
        return at(path, Duration.ofMinutes(10));
    }

    /**
     * The binary at {@code path}, each run killed after {@code timeout}.
     *
     * @throws ReviewException when there is no executable there
     */
    public static Opa at(Path path, Duration timeout) {
        if (!Files.isExecutable(path)) {
            throw new ReviewException("no OPA binary at " + path + " (run: make opa, or set GATEHOUSE_OPA)");
        }
        return new Opa(path, timeout);
    }

    /** The value of {@code query} for {@code input}, or a missing node when it is undefined. */
    public JsonNode eval(PolicySource source, String query, JsonNode input) {
        return eval(source, null, query, input);
    }

    /**
     * The same with one more Rego module loaded beside the policy (package {@code gatehouse_cli}, outside the
     * bundle's root). Many decisions in one evaluation go through such a module: its rules bind each
     * {@code with input as} value to a variable first. (In a query-level comprehension OPA v1.22.3 evaluates a
     * {@code with} value that reads {@code input} against the replaced input, so the query form gives wrong answers.)
     */
    public JsonNode eval(PolicySource source, String module, String query, JsonNode input) {
        Path moduleFile = null;
        try {
            List<String> command = new ArrayList<>(List.of(binary.toString(), "eval", "--format", "json"));
            command.addAll(source.opaArgs());
            if (module != null) {
                moduleFile = Files.createTempFile("gatehouse-cli-", ".rego");
                Files.writeString(moduleFile, module);
                command.addAll(List.of("-d", moduleFile.toString()));
            }
            command.addAll(List.of("--stdin-input", query));
            JsonNode out = JSON.readTree(run(command, JSON.writeValueAsBytes(input)));
            JsonNode value = out.path("result").path(0).path("expressions").path(0).path("value");
            return value.isMissingNode() ? MissingNode.getInstance() : value;
        } catch (IOException e) {
            throw new ReviewException("opa eval failed: " + e.getMessage());
        } finally {
            deleteQuietly(moduleFile);
        }
    }

    /**
     * The trace {@code opa eval --explain=<mode> --format pretty} prints for {@code query} on {@code input}: for
     * {@code fails} every expression that failed on the way to the answer (which rules did not apply, and where),
     * followed by the answer.
     *
     * @param mode {@code fails}, {@code notes}, {@code full} or {@code debug}
     */
    public String explain(PolicySource source, String query, JsonNode input, String mode) {
        try {
            List<String> command = new ArrayList<>(List.of(binary.toString(), "eval", "--explain=" + mode,
                    "--format", "pretty"));
            command.addAll(source.opaArgs());
            command.addAll(List.of("--stdin-input", query));
            return run(command, JSON.writeValueAsBytes(input));
        } catch (IOException e) {
            throw new ReviewException("opa eval --explain failed: " + e.getMessage());
        }
    }

    /** {@code opa inspect -a}: the manifest, namespaces and every METADATA annotation. */
    public JsonNode inspect(Path target) {
        try {
            return JSON.readTree(run(List.of(binary.toString(), "inspect", "-a", "--format", "json",
                    target.toString()), new byte[0]));
        } catch (IOException e) {
            throw new ReviewException("opa inspect failed: " + e.getMessage());
        }
    }

    /**
     * Runs {@code command} with {@code stdin} as its standard input. The input goes through the pipe, not a file, so
     * no input is left in the temporary folder by a run that is interrupted (a signal ends the JVM without running
     * {@code finally}).
     */
    private String run(List<String> command, byte[] stdin) throws IOException {
        Path out = Files.createTempFile("gatehouse-opa-", ".out");
        Path err = Files.createTempFile("gatehouse-opa-", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(stdin);
            } catch (IOException e) {
                // opa stopped reading: it failed before taking its input, and its exit code and messages say why
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new ReviewException("opa did not answer within " + timeout.toSeconds() + " s: "
                        + String.join(" ", command));
            }
            if (Files.size(out) > MAX_OUTPUT_BYTES) {
                throw new ReviewException("opa answered more than " + MAX_OUTPUT_BYTES + " bytes: "
                        + String.join(" ", command));
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                String detail = (Files.readString(err) + "\n" + text).strip();
                throw new ReviewException("opa exited with " + p.exitValue() + ": " + String.join(" ", command)
                        + "\n" + detail);
            }
            return text;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReviewException("interrupted while running opa");
        } finally {
            Files.deleteIfExists(out);
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
