package dev.gatehouse.gateway.policy.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.EvaluatingPdp;
import dev.gatehouse.gateway.policy.PolicyJson;
import dev.gatehouse.gateway.policy.ResultSet;
import dev.gatehouse.gateway.policy.SelfTest;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PDP (docs/design.md, "Two PDP engines"): the Wasm bundle evaluated in-process by opa-java-wasm.
 * Selected by {@code gatehouse.policy.engine=embedded}, the default.
 *
 * <p>At start-up it reads the bundle ({@link BundleReader}), builds {@link EmbeddedPdpConfiguration#poolSize()}
 * instances with the data loaded once each, and runs the {@link SelfTest} on every instance. Any failure there
 * (missing or corrupt bundle, wrong ABI, missing entrypoint, a built-in the host lacks, a wrong answer) leaves the
 * PDP up but unable to decide: every call returns {@link PolicyFault#BUNDLE_UNAVAILABLE}, {@link #status()} says
 * why, and the reason is logged once. The constructor never throws, so the gateway still starts and denies.
 *
 * <p>Per call: borrow an instance (waiting at most the {@code decision-deadline}, else {@link PolicyFault#BUSY}; the
 * wait is recorded in the timer {@value #QUEUE_WAIT}),
 * evaluate, return it. Anything the engine throws, {@link Error}s such as out-of-bounds memory access included, is
 * {@link PolicyFault#EVALUATION_ERROR}; the instance that threw is replaced by a freshly built one, since its
 * memory may be inconsistent. There is no evaluation timeout: the Wasm runtime offers no interrupt.
 */
@Context
@Requires(property = "gatehouse.policy.engine", value = EmbeddedPdp.ENGINE, defaultValue = EmbeddedPdp.ENGINE)
public final class EmbeddedPdp extends EvaluatingPdp {

    /** The value of {@code gatehouse.policy.engine} that selects this engine. */
    public static final String ENGINE = "embedded";

    /** Timer of the time a decision waited for a free instance (outcome {@code lent|busy}). */
    public static final String QUEUE_WAIT = "gatehouse.pdp.queue.wait";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPdp.class);

    private final Duration borrowWait;
    private final PolicyOutcome<Loaded> state;
    private final Timer lent;
    private final Timer busy;

    /** Loads, builds and self-tests with meters of its own; never throws (see the class comment). */
    public EmbeddedPdp(EmbeddedPdpConfiguration configuration) {
        this(configuration, new SimpleMeterRegistry());
    }

    /** Loads, builds and self-tests; never throws (see the class comment). */
    @Inject
    public EmbeddedPdp(EmbeddedPdpConfiguration configuration, MeterRegistry meters) {
        this.borrowWait = configuration.getDecisionDeadline();
        this.lent = queueWait(meters, "lent");
        this.busy = queueWait(meters, "busy");
        this.state = load(configuration);
        if (state instanceof PolicyOutcome.Failed<Loaded> failed) {
            LOG.error("Embedded PDP cannot decide; every call is denied with policy_unavailable: {}",
                    failed.fault().detail());
        } else {
            Loaded loaded = ((PolicyOutcome.Decided<Loaded>) state).value();
            LOG.info("Embedded PDP ready: bundle {} revision {}, {} instances", configuration.bundleFile(),
                    loaded.bundle().revision(), configuration.poolSize());
        }
    }

    @Override
    public PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input) {
        if (state instanceof PolicyOutcome.Failed<Loaded> failed) {
            return new PolicyOutcome.Failed<>(failed.fault());
        }
        Loaded loaded = ((PolicyOutcome.Decided<Loaded>) state).value();
        long start = System.nanoTime();
        Optional<WasmInstance> borrowed = loaded.pool().borrow(borrowWait);
        (borrowed.isPresent() ? lent : busy).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        if (borrowed.isEmpty()) {
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.BUSY,
                    "no policy instance became free within " + borrowWait.toMillis() + " ms"));
        }
        WasmInstance instance = borrowed.get();
        PolicyOutcome<ResultSet> outcome = evaluateOn(instance, loaded.bundle(), entrypoint, input);
        boolean engineFailed = outcome instanceof PolicyOutcome.Failed<ResultSet> failed
                && failed.fault().code().equals(PolicyFault.EVALUATION_ERROR);
        loaded.pool().release(engineFailed ? replacement(loaded.bundle(), instance) : instance);
        return outcome;
    }

    private static Timer queueWait(MeterRegistry meters, String outcome) {
        return Timer.builder(QUEUE_WAIT).description("time a decision waited for a free policy instance")
                .tag("outcome", outcome).register(meters);
    }

    @Override
    public PdpStatus status() {
        if (state instanceof PolicyOutcome.Failed<Loaded> failed) {
            return new PdpStatus(ENGINE, Optional.empty(), Optional.of(failed.fault()));
        }
        Loaded loaded = ((PolicyOutcome.Decided<Loaded>) state).value();
        return new PdpStatus(ENGINE, Optional.of(loaded.bundle().revision()), Optional.empty());
    }

    private static PolicyOutcome<Loaded> load(EmbeddedPdpConfiguration configuration) {
        try {
            WasmBundle bundle = BundleReader.read(configuration.bundleFile());
            List<WasmInstance> instances = new ArrayList<>();
            for (int i = 0; i < configuration.poolSize(); i++) {
                WasmInstance instance = new WasmInstance(bundle);
                PolicyOutcome<String> selfTest = SelfTest.run((entrypoint, in) ->
                        evaluateOn(instance, bundle, entrypoint, in));
                if (selfTest instanceof PolicyOutcome.Failed<String> failed) {
                    return new PolicyOutcome.Failed<>(failed.fault());
                }
                instances.add(instance);
            }
            return new PolicyOutcome.Decided<>(new Loaded(bundle, new WasmPool(instances)));
        } catch (BundleException e) {
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE, e.getMessage()));
        } catch (Throwable e) { // a corrupt module can fail anywhere inside the runtime, with Errors too
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE,
                    "the policy module cannot be instantiated: " + describe(e)));
        }
    }

    /** marshal → Wasm → read the result set; the one place this engine touches the runtime. */
    private static PolicyOutcome<ResultSet> evaluateOn(WasmInstance instance, WasmBundle bundle,
            Entrypoint entrypoint, ObjectNode input) {
        String raw;
        try {
            raw = instance.evaluate(entrypoint, PolicyJson.write(input));
        } catch (Throwable e) { // includes Errors: a trap or out-of-bounds access inside generated code
            LOG.warn("Wasm evaluation of {} failed: {}", entrypoint.path(), describe(e));
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.EVALUATION_ERROR, describe(e)));
        }
        try {
            JsonNode results = PolicyJson.MAPPER.readTree(raw);
            return new PolicyOutcome.Decided<>(new ResultSet(results, bundle.revision()));
        } catch (JsonProcessingException e) {
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.MALFORMED_RESULT,
                    "the engine returned text that is not JSON"));
        }
    }

    private static WasmInstance replacement(WasmBundle bundle, WasmInstance broken) {
        try {
            WasmInstance fresh = new WasmInstance(bundle);
            PolicyOutcome<String> selfTest = SelfTest.run((entrypoint, in) ->
                    evaluateOn(fresh, bundle, entrypoint, in));
            if (selfTest instanceof PolicyOutcome.Failed<String> failed) {
                LOG.error("Replacement policy instance failed its self-test; keeping the old one: {}",
                        failed.fault().detail());
            } else {
                return fresh;
            }
        } catch (Throwable e) {
            LOG.error("Replacement policy instance could not be built; keeping the old one: {}", describe(e));
        }
        return broken;
    }

    private static String describe(Throwable e) {
        return e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** A bundle whose instances all passed the self-test. */
    private record Loaded(WasmBundle bundle, WasmPool pool) {
    }
}
