package dev.gatehouse.gateway.policy.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.ResultSet;
import dev.gatehouse.gateway.policy.SelfTest;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One activated Wasm revision: its bundle, its pool of self-tested instances and its contents. Per call: borrow an
 * instance (waiting at most the decision deadline, else {@link PolicyFault#BUSY}; the wait is recorded), evaluate
 * (the request thread's CPU time in the engine is recorded too, {@link EngineCpu}), return it. Anything the engine
 * throws, {@link Error}s such as out-of-bounds memory access included, is {@link PolicyFault#EVALUATION_ERROR}; the
 * instance that threw never goes back into the pool, since its memory may be inconsistent: a replacement is built
 * and self-tested on the rebuild executor, off the request path, and joins the pool when ready (until then the pool
 * lends one instance fewer). There is no evaluation timeout: the Wasm runtime offers no interrupt.
 */
final class EmbeddedRevision extends WasmRevision {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRevision.class);

    private final WasmPool pool;
    private final Lending lending;
    private final String archiveSha256;

    /**
     * How instances are lent, the same for every revision of one engine.
     *
     * @param borrowWait the longest wait for a free instance
     * @param lent    records the waits that got an instance
     * @param busy    records the waits that did not
     * @param rebuild where replacements of failed instances are built
     * @param engineCpu records, per entry point, the CPU time the request thread spent in each Wasm evaluation
     */
    record Lending(Duration borrowWait, Timer lent, Timer busy, Executor rebuild, EngineCpu engineCpu) {
    }

    /**
     * @param source where the bundle came from ({@link KeptRevision#source()})
     * @param rego   its Rego bundle, looked for while this revision serves
     */
    EmbeddedRevision(WasmBundle bundle, WasmPool pool, PolicyContents contents, Instant activatedAt,
            Lending lending, String archiveSha256, String source, RegoBundles.Holder rego) {
        super(bundle, contents, activatedAt, source, rego);
        this.pool = pool;
        this.lending = lending;
        this.archiveSha256 = archiveSha256;
    }

    /** While serving, the Rego bundle file is looked at again until it holds this revision. */
    @Override
    public Optional<byte[]> regoBundle() {
        return rego().get(true);
    }

    /** This revision as it is kept once another serves: its verified bundle, without the pool. */
    RetiredRevision retire() {
        return new RetiredRevision(bundle(), contents(), activatedAt(), source(), rego());
    }

    /** The SHA-256 of the archive it was read from: an archive offered again with the same bytes changes nothing. */
    String archiveSha256() {
        return archiveSha256;
    }

    @Override
    public PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input) {
        Optional<String> inputJson = written(input);
        return inputJson.isPresent() ? evaluate(entrypoint, input, inputJson.get()) : unwritable();
    }

    /** Evaluates the input's JSON as written once by the caller; the instance is borrowed only for the Wasm call. */
    @Override
    protected PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input, String inputJson) {
        long start = System.nanoTime();
        Optional<WasmInstance> borrowed = pool.borrow(lending.borrowWait());
        (borrowed.isPresent() ? lending.lent() : lending.busy()).record(System.nanoTime() - start,
                TimeUnit.NANOSECONDS);
        if (borrowed.isEmpty()) {
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.BUSY,
                    "no policy instance became free within " + lending.borrowWait().toMillis() + " ms"));
        }
        long cpuStart = lending.engineCpu().start();
        PolicyOutcome<ResultSet> outcome = evaluateOn(borrowed.get(), bundle(), entrypoint, inputJson);
        lending.engineCpu().stop(entrypoint, cpuStart);
        if (outcome instanceof PolicyOutcome.Failed<ResultSet> failed
                && failed.fault().code().equals(PolicyFault.EVALUATION_ERROR)) {
            lending.rebuild().execute(this::replaceOne);
        } else {
            pool.release(borrowed.get());
        }
        return outcome;
    }

    /** Builds and self-tests one instance for the pool, in place of one that failed. */
    private void replaceOne() {
        WasmBundle bundle = bundle();
        try {
            WasmInstance fresh = new WasmInstance(bundle);
            PolicyOutcome<String> selfTest = SelfTest.run((entrypoint, in) -> evaluateOn(fresh, bundle, entrypoint,
                    in), bundle.smokeCases());
            if (selfTest instanceof PolicyOutcome.Failed<String> failed) {
                LOG.error("Replacement policy instance of revision {} failed its self-test; the pool lends one "
                        + "instance fewer: {}", bundle.revision(), failed.fault().detail());
                return;
            }
            pool.release(fresh);
        } catch (Throwable e) { // a module that cannot be rebuilt fails anywhere inside the runtime, with Errors too
            LOG.error("Replacement policy instance of revision {} could not be built; the pool lends one instance "
                    + "fewer: {}", bundle.revision(), describe(e));
        }
    }

    /** marshal → Wasm → read the result set. */
    static PolicyOutcome<ResultSet> evaluateOn(WasmInstance instance, WasmBundle bundle, Entrypoint entrypoint,
            ObjectNode input) {
        Optional<String> inputJson = written(input);
        return inputJson.isPresent() ? evaluateOn(instance, bundle, entrypoint, inputJson.get()) : unwritable();
    }

    /** The input's JSON; empty when Jackson cannot write it (nested past its writing limit). */
    static Optional<String> written(ObjectNode input) {
        try {
            return Optional.of(PolicyJson.write(input));
        } catch (RuntimeException | StackOverflowError e) {
            return Optional.empty();
        }
    }

    /** An input that cannot be written is this engine's fault, as any other it cannot evaluate. */
    static PolicyOutcome<ResultSet> unwritable() {
        return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.EVALUATION_ERROR,
                "the decision input cannot be written as JSON"));
    }

    /** Wasm → read the result set, for input JSON already written; the one place this engine touches the runtime. */
    static PolicyOutcome<ResultSet> evaluateOn(WasmInstance instance, WasmBundle bundle, Entrypoint entrypoint,
            String inputJson) {
        String raw;
        try {
            raw = instance.evaluate(entrypoint, inputJson);
        } catch (Throwable e) { // includes Errors: a trap or out-of-bounds access inside generated code
            LOG.warn("Wasm evaluation of {} failed: {}", entrypoint.path(), describe(e));
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.EVALUATION_ERROR, describe(e)));
        }
        try {
            JsonNode results = PolicyJson.MAPPER.readTree(raw);
            return new PolicyOutcome.Decided<>(new ResultSet(results, bundle.revision(), bundle.keyId()));
        } catch (JsonProcessingException e) {
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.MALFORMED_RESULT,
                    "the engine returned text that is not JSON"));
        }
    }

    static String describe(Throwable e) {
        return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
