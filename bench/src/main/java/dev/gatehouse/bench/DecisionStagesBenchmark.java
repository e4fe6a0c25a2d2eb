package dev.gatehouse.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.styra.opa.wasm.OpaPolicy;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.gateway.policy.DecisionParser;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.ResultSet;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.embedded.BundleReader;
import dev.gatehouse.gateway.policy.embedded.WasmBundle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Where one tools/call decision spends its time, stage by stage, single-threaded: marshal (typed input → JSON
 * text), Wasm (opa-java-wasm evaluate on that text, result set text out), parse (result text → decision).
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecisionStagesBenchmark {

    private OpaPolicy policy;
    private String inputJson;
    private String resultJson;
    private String revision;

    /** One instance with data loaded, as the pool holds them. */
    @Setup
    public void setUp() throws BundleException {
        WasmBundle bundle = BundleReader.read(Fixture.bundle(), Fixture.verification());
        policy = OpaPolicy.builder().withPolicy(bundle.wasm()).build();
        policy.data(bundle.dataJson());
        policy.entrypoint(Entrypoint.DECISION.path());
        revision = bundle.revision();
        inputJson = marshal();
        resultJson = wasm();
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
