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
import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.bundle.BundleVerification;
import dev.gatehouse.gateway.policy.bundle.PolicyBundle;
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
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PDP (docs/design.md, "Two PDP engines"): verified Wasm bundles evaluated in-process by
 * opa-java-wasm. Selected by {@code gatehouse.policy.engine=embedded}, the default.
 *
 * <p><b>Activation.</b> A bundle is offered ({@link #offer}: the file at start-up, then whatever
 * {@link BundleWatcher} finds). It is verified ({@link PolicyBundle#verify}, OPA's signing rules), refused when it
 * was signed earlier than the serving one (unless {@code allow-rollback}), then {@link EmbeddedPdpConfiguration#poolSize()}
 * instances are built with the data loaded once each and the {@link SelfTest} with the bundle's smoke cases runs on
 * every instance. Only then does the new engine replace the old one, whole, in one atomic step. Each evaluation
 * takes the serving engine once, so every decision is wholly one revision, and an evaluation already running
 * finishes on the engine it took; the old engine is dropped once its last decision returns its instance (the Wasm
 * runtime holds no resource beyond memory). A refused bundle changes nothing: the serving revision keeps serving,
 * {@link #status()} reports the refusal, and it is logged. Offers are handled one at a time.
 *
 * <p>Without a serving engine (no bundle yet, or the first one refused) every call returns
 * {@link PolicyFault#BUNDLE_UNAVAILABLE} and {@link #status()} says "no verified bundle" and why. The constructor
 * never throws, so the gateway still starts and denies.
 *
 * <p>Per call: borrow an instance (waiting at most the {@code decision-deadline}, else {@link PolicyFault#BUSY}; the
 * wait is recorded in the timer {@value #QUEUE_WAIT}), evaluate, return it. Anything the engine throws,
 * {@link Error}s such as out-of-bounds memory access included, is {@link PolicyFault#EVALUATION_ERROR}; the
 * instance that threw is replaced by a freshly built one, since its memory may be inconsistent. There is no
 * evaluation timeout: the Wasm runtime offers no interrupt.
 */
@Context
@Requires(property = "gatehouse.policy.engine", value = EmbeddedPdp.ENGINE, defaultValue = EmbeddedPdp.ENGINE)
public final class EmbeddedPdp extends EvaluatingPdp {

    /** The value of {@code gatehouse.policy.engine} that selects this engine. */
    public static final String ENGINE = "embedded";

    /** Timer of the time a decision waited for a free instance (outcome {@code lent|busy}). */
    public static final String QUEUE_WAIT = "gatehouse.pdp.queue.wait";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPdp.class);

    private final EmbeddedPdpConfiguration configuration;
    private final Duration borrowWait;
    private final Timer lent;
    private final Timer busy;
    private final AtomicReference<Serving> serving = new AtomicReference<>();
    private volatile Optional<PolicyFault> lastRefusal = Optional.empty();

    /** Loads, builds and self-tests the bundle file, with meters of its own; never throws. */
    public EmbeddedPdp(EmbeddedPdpConfiguration configuration) {
        this(configuration, new SimpleMeterRegistry());
    }

    /**
     * Offers the bundle file ({@link EmbeddedPdpConfiguration#bundleFile()}) once; never throws. When the file
     * does not exist the PDP starts without a bundle (a bundle service may bring one).
     */
    @Inject
    public EmbeddedPdp(EmbeddedPdpConfiguration configuration, MeterRegistry meters) {
        this.configuration = configuration;
        this.borrowWait = configuration.getDecisionDeadline();
        this.lent = queueWait(meters, "lent");
        this.busy = queueWait(meters, "busy");
        if (configuration.isAllowUnsigned()) {
            LOG.warn("gatehouse.policy.allow-unsigned is set: unsigned policy bundles are accepted (development only)");
        }
        Activation first;
        try {
            first = offer(BundleArchive.read(configuration.bundleFile()));
        } catch (BundleException e) {
            first = refuse(e.getMessage());
        }
        if (first instanceof Activation.Activated) {
            LOG.info("Embedded PDP ready: bundle {} revision {} (key {}), {} instances", configuration.bundleFile(),
                    serving.get().bundle().revision(), serving.get().bundle().keyId().orElse("none: unsigned"),
                    configuration.poolSize());
        }
    }

    /**
     * Offers a bundle: verifies it, refuses one signed before the serving one (unless rollback is allowed), builds
     * and self-tests a new engine, and swaps it in (class comment). Never throws; one offer at a time.
     *
     * @return what happened; on {@link Activation.Refused} the serving revision keeps serving
     */
    public synchronized Activation offer(BundleArchive archive) {
        Serving current = serving.get();
        if (current != null && current.archiveSha256().equals(archive.sha256())) {
            return new Activation.Unchanged(current.bundle().revision());
        }
        WasmBundle bundle;
        try {
            BundleVerification verification = configuration.verification();
            bundle = BundleReader.from(PolicyBundle.verify(archive, verification));
        } catch (BundleException | RuntimeException e) {
            return refuse("bundle refused: " + e.getMessage());
        }
        if (current != null && isOlder(bundle, current.bundle()) && !configuration.isAllowRollback()) {
            return refuse("bundle revision " + bundle.revision() + " was signed at " + bundle.signedAt().get()
                    + ", before the serving revision " + current.bundle().revision() + " ("
                    + current.bundle().signedAt().get() + "); set gatehouse.policy.allow-rollback to roll back");
        }
        PolicyOutcome<WasmPool> pool = build(bundle, configuration.poolSize());
        if (pool instanceof PolicyOutcome.Failed<WasmPool> failed) {
            return refuse("bundle revision " + bundle.revision() + " not activated: " + failed.fault().detail());
        }
        serving.set(new Serving(bundle, ((PolicyOutcome.Decided<WasmPool>) pool).value(), archive.sha256()));
        lastRefusal = Optional.empty();
        String previous = current == null ? "none" : current.bundle().revision();
        LOG.info("Policy bundle revision {} (key {}) activated; it replaces {}", bundle.revision(),
                bundle.keyId().orElse("none: unsigned"), previous);
        return new Activation.Activated(bundle.revision(), previous);
    }

    /**
     * Records a bundle that arrived but could not even be read as an archive (a corrupt file, a body that is not
     * gzip): reported as the last refusal, exactly as a bundle that failed verification; the serving revision keeps
     * serving.
     *
     * @param detail what could not be read, and why
     */
    public synchronized Activation refuseUnreadable(String detail) {
        return refuse("bundle refused: " + detail);
    }

    @Override
    public PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input) {
        Serving engine = serving.get(); // taken once: this evaluation is wholly this revision
        if (engine == null) {
            return new PolicyOutcome.Failed<>(noBundle());
        }
        long start = System.nanoTime();
        Optional<WasmInstance> borrowed = engine.pool().borrow(borrowWait);
        (borrowed.isPresent() ? lent : busy).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        if (borrowed.isEmpty()) {
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.BUSY,
                    "no policy instance became free within " + borrowWait.toMillis() + " ms"));
        }
        WasmInstance instance = borrowed.get();
        PolicyOutcome<ResultSet> outcome = evaluateOn(instance, engine.bundle(), entrypoint, input);
        boolean engineFailed = outcome instanceof PolicyOutcome.Failed<ResultSet> failed
                && failed.fault().code().equals(PolicyFault.EVALUATION_ERROR);
        engine.pool().release(engineFailed ? replacement(engine.bundle(), instance) : instance);
        return outcome;
    }

    @Override
    public PdpStatus status() {
        Serving engine = serving.get();
        if (engine == null) {
            return new PdpStatus(ENGINE, Optional.empty(), Optional.of(noBundle()), Optional.empty(), lastRefusal);
        }
        return new PdpStatus(ENGINE, Optional.of(engine.bundle().revision()), Optional.empty(),
                engine.bundle().keyId(), lastRefusal);
    }

    private PolicyFault noBundle() {
        return new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE, "not ready: no verified bundle ("
                + lastRefusal.map(PolicyFault::detail).orElse("none offered yet") + ")");
    }

    private Activation refuse(String reason) {
        lastRefusal = Optional.of(new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE, reason));
        Serving current = serving.get();
        if (current != null) {
            LOG.error("{}; revision {} keeps serving", reason, current.bundle().revision());
        } else {
            LOG.error("{}; no revision serving: every call is denied with policy_unavailable", reason);
        }
        return new Activation.Refused(reason);
    }

    private static boolean isOlder(WasmBundle offered, WasmBundle serving) {
        return offered.signedAt().isPresent() && serving.signedAt().isPresent()
                && offered.signedAt().get().isBefore(serving.signedAt().get());
    }

    private static Timer queueWait(MeterRegistry meters, String outcome) {
        return Timer.builder(QUEUE_WAIT).description("time a decision waited for a free policy instance")
                .tag("outcome", outcome).register(meters);
    }

    /** Every instance of a new engine, each self-tested with the bundle's smoke cases. */
    private static PolicyOutcome<WasmPool> build(WasmBundle bundle, int size) {
        try {
            List<WasmInstance> instances = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                WasmInstance instance = new WasmInstance(bundle);
                PolicyOutcome<String> selfTest = SelfTest.run((entrypoint, in) ->
                        evaluateOn(instance, bundle, entrypoint, in), bundle.smokeCases());
                if (selfTest instanceof PolicyOutcome.Failed<String> failed) {
                    return new PolicyOutcome.Failed<>(failed.fault());
                }
                instances.add(instance);
            }
            return new PolicyOutcome.Decided<>(new WasmPool(instances));
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
            return new PolicyOutcome.Decided<>(new ResultSet(results, bundle.revision(), bundle.keyId()));
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

    /** One revision's engine: the bundle and its pool of instances, all self-tested. */
    private record Serving(WasmBundle bundle, WasmPool pool, String archiveSha256) {
    }
}
