package dev.gatehouse.bench;

import com.styra.opa.wasm.OpaPolicy;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.embedded.BundleReader;
import dev.gatehouse.gateway.policy.embedded.WasmBundle;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A profile of the Wasm evaluation by policy document: the same {@code policies/} built with extra entrypoints
 * (scripts/bench.sh writes {@code bench/target/profile-bundle.tar.gz}), each document evaluated alone for a
 * non-wiki call and for a wiki call. Shows which rules a decision spends its time in.
 */
@State(Scope.Thread)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PolicyDocumentsBenchmark {

    /** Entrypoints under {@code gatehouse/authz/} that scripts/bench.sh builds into the profile bundle. */
    @Param({"decision", "allow", "reasons", "obligations", "arguments/ok", "modes/ok", "wiki/ok"})
    public String document;

    /** The call: {@code t3_thread_launch} (no wiki rule applies) or {@code wiki_write}. */
    @Param({"t3_thread_launch", "wiki_write"})
    public String call;

    private OpaPolicy policy;
    private String input;

    /** One instance with data loaded, entrypoint set once. */
    @Setup
    public void setUp() throws BundleException {
        WasmBundle bundle = BundleReader.read(Path.of(System.getProperty("gatehouse.profile-bundle",
                "bench/target/profile-bundle.tar.gz")), Fixture.verification());
        policy = OpaPolicy.builder().withPolicy(bundle.wasm()).build();
        policy.data(bundle.dataJson());
        policy.entrypoint("gatehouse/authz/" + document);
        input = PolicyJson.write(DecisionInputMapper.forCall(
                call.equals("wiki_write") ? Fixture.WIKI_WRITE : Fixture.THREAD_LAUNCH));
    }

    /** One evaluation of the document: load input, evaluate, dump the result. */
    @Benchmark
    public String evaluate() {
        return policy.evaluate(input);
    }
}
