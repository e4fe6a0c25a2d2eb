package dev.gatehouse.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.styra.opa.wasm.OpaPolicy;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.embedded.BundleReader;
import dev.gatehouse.gateway.policy.embedded.WasmBundle;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The Wasm engine alone (JSON text in, result set text out, as {@link DecisionStagesBenchmark#wasm}) on the very
 * inputs a gateway evaluated under the load harness: the {@code input} of the first {@value #MAX_INPUTS} tools/call
 * records of the decision log {@code -p log=<decisions.jsonl>} whose {@code tool} is {@code -p tool=<name>}. So the
 * engine's time in JMH and its share of a gated call in the load harness are told on the same inputs (issue "the
 * gate's own cost"). One instance with the bundle's data loaded, as the pool holds them. Without a log (the default
 * {@code -p log=}) the benchmark refuses to run.
 *
 * <p>{@code -p walkBytes=<n>}: before each evaluation the thread reads one byte of every 64 (one cache line) of an
 * {@code n}-byte array, as a gateway's request thread runs Jetty, Jackson and the HTTP client between two decisions,
 * so the engine starts with its memory and code no longer in the core's caches. {@link #walk} times the walk alone;
 * {@code wasm − walk} is the evaluation from cold caches. 0 (the default) is the usual hot loop.
 *
 * <p>{@code -p instances=<n>}: the thread evaluates on {@code n} instances in turn, one call each, as a pool of
 * {@code n} lends them under load. The runtime compiles the module into classes per instance, so each instance's code
 * is its own for the JIT and the core's caches. 1 (the default) is one instance.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class LoggedInputBenchmark {

    static final int MAX_INPUTS = 4096;
    /** Numbers read as written ({@code 1.50} stays {@code 1.50}), as the gateway hands them to the engine. */
    private static final ObjectMapper EXACT = PolicyJson.MAPPER.copy()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

    /** A decision log of the load harness ({@code <work>/decisions.jsonl}). */
    @Param("")
    public String log;

    /** Whose records to take. */
    @Param({"wiki_read", "project_work_list"})
    public String tool;

    /** Bytes of other memory read between two evaluations (0: none). */
    @Param("0")
    public int walkBytes;

    /** How many instances the thread takes in turn. */
    @Param("1")
    public int instances;

    private OpaPolicy[] policies;
    private byte[] other;
    private int sum;
    private String[] inputs;
    private int next;

    @Setup
    public void setUp() throws BundleException, IOException {
        WasmBundle bundle = BundleReader.read(Fixture.bundle(), Fixture.verification());
        policies = new OpaPolicy[instances];
        for (int i = 0; i < instances; i++) {
            policies[i] = OpaPolicy.builder().withPolicy(bundle.wasm()).build();
            policies[i].data(bundle.dataJson());
            policies[i].entrypoint(Entrypoint.DECISION.path());
        }
        inputs = inputs(Path.of(log), tool).toArray(String[]::new);
        other = new byte[walkBytes];
        if (inputs.length == 0) {
            throw new IllegalStateException("no tools/call record of " + tool + " with an input in " + log);
        }
    }

    /** The input JSON of the log's evaluated tools/call records of {@code tool}, as the gateway wrote them. */
    static List<String> inputs(Path log, String tool) throws IOException {
        List<String> inputs = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
            String line;
            while (inputs.size() < MAX_INPUTS && (line = reader.readLine()) != null) {
                JsonNode record = EXACT.readTree(line);
                if (record.path("path").asText().equals(Entrypoint.DECISION.path())
                        && record.path("tool").asText().equals(tool) && record.path("input").isObject()
                        && record.path("masked").isEmpty()) {
                    inputs.add(EXACT.writeValueAsString(record.get("input")));
                }
            }
        }
        return inputs;
    }

    /** One logged input through the engine, the inputs taken in turn, after the walk. */
    @Benchmark
    public String wasm() {
        sum += walkOther();
        int call = next++;
        return policies[call % policies.length].evaluate(inputs[call % inputs.length]);
    }

    /** The walk alone, to subtract from {@link #wasm}. */
    @Benchmark
    public int walk() {
        return walkOther();
    }

    private int walkOther() {
        int seen = sum;
        for (int i = 0; i < other.length; i += 64) {
            seen += other[i];
            other[i] = (byte) seen; // written too, so the lines are dirty as a request's buffers are
        }
        return seen;
    }
}
