package dev.gatehouse.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.styra.opa.wasm.OpaPolicy;
import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.ToolSchema;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.gateway.policy.DecisionParser;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.ResultSet;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.embedded.BundleReader;
import dev.gatehouse.gateway.policy.embedded.WasmBundle;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Where one tools/call decision spends its time, stage by stage, single-threaded: facts (the arguments as received →
 * {@link ArgumentFacts}: envelope, closed-schema check, the arguments as sent, keys by meaning, Unicode categories),
 * the closed-schema check alone (the JSON Schema library's share of facts), written (facts, then the decision input
 * they make written: the whole arguments step of a call), marshal (typed input → JSON text), Wasm
 * (opa-java-wasm evaluate on that text, result set text out), parse (result text → decision).
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecisionStagesBenchmark {

    /** {@link Fixture#WIKI_WRITE}'s arguments as the gateway parses them from the request. */
    private static final Object ARGUMENTS = Fixture.WIKI_WRITE.arguments().orElseThrow();

    private OpaPolicy policy;
    private String inputJson;
    private String resultJson;
    private String revision;
    private ToolSchema schema;
    private AccessRow row;
    private final ArgumentLimits limits = new ArgumentLimits();

    /** One instance with data loaded, as the pool holds them. */
    @Setup
    public void setUp() throws BundleException {
        WasmBundle bundle = BundleReader.read(Fixture.bundle(), Fixture.verification());
        policy = OpaPolicy.builder().withPolicy(bundle.wasm()).build();
        policy.data(bundle.dataJson());
        policy.entrypoint(Entrypoint.DECISION.path());
        revision = bundle.revision();
        schema = Fixture.schema("wiki_write");
        row = Fixture.row("wiki_write");
        inputJson = marshal();
        resultJson = wasm();
    }

    /**
     * The arguments as received → the facts the decision input carries (the one walk over them, which builds the
     * input's arguments nodes, and the closed-schema check).
     */
    @Benchmark
    public ArgumentFacts facts() {
        return ArgumentFacts.of(Optional.of(schema), Optional.of(row), ARGUMENTS, limits,
                Fixture.CALLER.subtreeIds());
    }

    /** The closed-schema check alone (networknt json-schema-validator), part of {@link #facts}. */
    /** The gate's whole arguments step: the facts, then the decision input they make written once. */
    @Benchmark
    public Optional<WrittenInput> written() {
        return WrittenInput.forCall(new DecisionInput("wiki_write", facts(), Fixture.CALLER, Map.of()));
    }

    @Benchmark
    public List<ArgumentError> schemaCheck() {
        return schema.validator().check(ARGUMENTS);
    }

    /** Typed input → decision-input JSON text. */
    @Benchmark
    public String marshal() {
        return PolicyJson.write(DecisionInputMapper.forCall(Fixture.WIKI_WRITE));
    }

    /** JSON text in, result set text out: the Wasm runtime alone (input load, eval, result dump). */
    @Benchmark
    public String wasm() {
        return policy.evaluate(inputJson);
    }

    /** Result set text → checked decision. */
    @Benchmark
    public PolicyOutcome<Decision> parse() throws JsonProcessingException {
        JsonNode results = PolicyJson.MAPPER.readTree(resultJson);
        return DecisionParser.decision(new ResultSet(results, revision), System.nanoTime());
    }
}
