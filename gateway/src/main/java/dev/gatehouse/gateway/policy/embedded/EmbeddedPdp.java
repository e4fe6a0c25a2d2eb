package dev.gatehouse.gateway.policy.embedded;

import dev.gatehouse.gateway.policy.DecisionParser;
import dev.gatehouse.gateway.policy.EnforcementDocument;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.EvaluatingPolicy;
import dev.gatehouse.gateway.policy.PolicyDocument;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.ResultSet;
import dev.gatehouse.gateway.policy.SelfTest;
import dev.gatehouse.gateway.policy.api.EnforcementCheck;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.policy.bundle.AcceptedRevisions;
import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.bundle.PolicyBundle;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PDP (docs/design.md, "Two PDP engines"): verified Wasm bundles evaluated in-process by
 * opa-java-wasm. Selected by {@code gatehouse.policy.engine=embedded}, the default. This class activates revisions;
 * {@link EmbeddedRevision} evaluates on one.
 *
 * <p><b>Activation.</b> A bundle is offered ({@link #offer}: the file at start-up, then whatever
 * {@link BundleWatcher} finds). It is verified ({@link PolicyBundle#verify}, OPA's signing rules) and checked against
 * rollback: a signed bundle must carry {@code iat}, no further in the future than {@code iat-leeway}, and no earlier
 * than the newest revision this deployment ever accepted ({@link AcceptedRevisions}, shared by every replica and
 * kept across restarts); {@code allow-rollback} lifts the first and the last rule for development. Then
 * {@link EmbeddedPdpConfiguration#poolSize()}
 * instances are built with the data loaded once each (an instance whose module lacks an {@link Entrypoint} fails
 * here), the {@link SelfTest} with the bundle's smoke cases runs on every instance, the revision's contents are read
 * from its {@code enforcement} entry point ({@link EnforcementDocument}) and the {@link EnforcementCheck} confirms
 * this gateway can enforce them (a handler for every row and a row for every handler, a schema for every row that
 * compiles). Only then does the new revision replace the old one, whole, in one atomic step: each call takes the
 * serving revision once ({@link #serving()}), so its row, schema, decision and reason catalogue all come from one
 * revision, and a call already running finishes on the revision it took. A refused bundle changes nothing: the
 * serving revision keeps serving, {@link #status()} reports the refusal, and it is logged. Offers are handled one at a
 * time.
 *
 * <p>Without a serving revision (no bundle yet, or the first one refused) {@link #serving()} is empty, every call is
 * denied {@code policy_unavailable} by the PEP, and {@link #status()} says "no verified bundle" and why. The
 * constructor never throws, so the gateway still starts and denies.
 */
@Context
@Requires(property = "gatehouse.policy.engine", value = EmbeddedPdp.ENGINE, defaultValue = EmbeddedPdp.ENGINE)
public final class EmbeddedPdp implements PolicyDecisionPoint, RevisionHistory {

    /** The value of {@code gatehouse.policy.engine} that selects this engine. */
    public static final String ENGINE = "embedded";

    /** Timer of the time a decision waited for a free instance (outcome {@code lent|busy}). */
    public static final String QUEUE_WAIT = "gatehouse.pdp.queue.wait";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPdp.class);
    /** Refused offers kept for the console. */
    private static final int MAX_REFUSALS = 20;

    private final EmbeddedPdpConfiguration configuration;
    private final EnforcementCheck enforcement;
    private final AcceptedRevisions accepted;
    private final Clock clock;
    private final ExecutorService rebuild = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "policy-instance-rebuild");
        thread.setDaemon(true);
        return thread;
    });
    private final EmbeddedRevision.Lending lending;
    private final AtomicReference<EmbeddedRevision> serving = new AtomicReference<>();
    private volatile Optional<PolicyFault> lastRefusal = Optional.empty();
    private final RegoBundles regoBundles;
    /** Revisions served before the serving one, newest first; guarded by this. */
    private final Deque<RetiredRevision> retired = new ArrayDeque<>();
    /** Offers refused, newest first; guarded by this. */
    private final Deque<Refusal> refusals = new ArrayDeque<>();

    /**
     * An engine for callers that enforce nothing themselves (benchmarks, engine tests): every revision's contents are
     * accepted as they are, and the rollback floor is kept in this process. Loads, builds and self-tests the bundle
     * file, with meters of its own; never throws.
     */
    public EmbeddedPdp(EmbeddedPdpConfiguration configuration) {
        this(configuration, new SimpleMeterRegistry(), contents -> List.of(), AcceptedRevisions.inMemory(),
                Clock.systemUTC());
    }

    /**
     * Offers the bundle file ({@link EmbeddedPdpConfiguration#bundleFile()}) once; never throws. When the file
     * does not exist the PDP starts without a bundle (a bundle service may bring one).
     *
     * @param enforcement whether this gateway can enforce a revision's contents; asked before each activation
     * @param accepted    the newest revision ever accepted, the rollback floor
     */
    @Inject
    public EmbeddedPdp(EmbeddedPdpConfiguration configuration, MeterRegistry meters, EnforcementCheck enforcement,
            AcceptedRevisions accepted, Clock clock) {
        this.configuration = configuration;
        this.enforcement = enforcement;
        this.accepted = accepted;
        this.clock = clock;
        this.regoBundles = new RegoBundles(configuration);
        this.lending = new EmbeddedRevision.Lending(configuration.getDecisionDeadline(), queueWait(meters, "lent"),
                queueWait(meters, "busy"), rebuild, new EngineCpu(meters));
        if (configuration.isAllowUnsigned()) {
            LOG.warn("gatehouse.policy.allow-unsigned is set: unsigned policy bundles are accepted (development only)");
        }
        Activation first;
        try {
            first = offer(BundleArchive.read(configuration.bundleFile()), "file " + configuration.bundleFile());
        } catch (BundleException e) {
            first = refuse(e.getMessage());
        }
        if (first instanceof Activation.Activated) {
            LOG.info("Embedded PDP ready: bundle {} revision {} (key {}), {} instances", configuration.bundleFile(),
                    serving.get().revision(), serving.get().keyId().orElse("none: unsigned"),
                    configuration.poolSize());
        }
    }

    /**
     * Offers a bundle: verifies it, refuses one signed before the serving one (unless rollback is allowed), builds
     * and self-tests a new engine, reads and checks its contents, and swaps it in (class comment). Never throws; one
     * offer at a time.
     *
     * @return what happened; on {@link Activation.Refused} the serving revision keeps serving
     */
    public Activation offer(BundleArchive archive) {
        return offer(archive, "offered directly");
    }

    /**
     * The same, naming where the bundle came from ({@link KeptRevision#source()}: {@code file <path>},
     * {@code bundle service <url>}).
     */
    public synchronized Activation offer(BundleArchive archive, String source) {
        EmbeddedRevision current = serving.get();
        if (current != null && current.archiveSha256().equals(archive.sha256())) {
            return new Activation.Unchanged(current.revision());
        }
        WasmBundle bundle;
        try {
            bundle = BundleReader.from(PolicyBundle.verify(archive, configuration.verification()));
        } catch (BundleException | RuntimeException e) {
            return refuse("bundle refused: " + e.getMessage());
        }
        Optional<Activation> rollback = rollback(bundle);
        if (rollback.isPresent()) {
            return rollback.get();
        }
        PolicyOutcome<WasmPool> pool = build(bundle, configuration.poolSize());
        if (pool instanceof PolicyOutcome.Failed<WasmPool> failed) {
            return refuse("bundle revision " + bundle.revision() + " not activated: " + failed.fault().detail());
        }
        WasmPool instances = ((PolicyOutcome.Decided<WasmPool>) pool).value();
        List<String> problems = new ArrayList<>();
        Optional<PolicyContents> contents = contents(bundle, instances, problems);
        contents.ifPresent(read -> problems.addAll(enforcement.problems(read)));
        if (!problems.isEmpty()) {
            return refuse("bundle revision " + bundle.revision() + " cannot be enforced by this gateway: "
                    + String.join("; ", problems));
        }
        Optional<Activation> raced = record(bundle);
        if (raced.isPresent()) {
            return raced.get();
        }
        EmbeddedRevision next = new EmbeddedRevision(bundle, instances, contents.get(), clock.instant(), lending,
                archive.sha256(), source, regoBundles.holder(bundle.revision()));
        serving.set(next);
        keep(current);
        next.regoBundle(); // make bundle writes the Rego bundle first: found now, before a newer one replaces it
        lastRefusal = Optional.empty();
        String previous = current == null ? "none" : current.revision();
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

    /**
     * The serving revision, then those served before it, newest first, one per revision, at most
     * {@code kept-revisions} in all.
     */
    @Override
    public synchronized List<KeptRevision> kept() {
        List<KeptRevision> kept = new ArrayList<>();
        EmbeddedRevision now = serving.get();
        if (now != null) {
            kept.add(now);
        }
        for (RetiredRevision revision : retired) {
            if (kept.size() < configuration.getKeptRevisions()
                    && kept.stream().noneMatch(k -> k.revision().equals(revision.revision()))) {
                kept.add(revision);
            }
        }
        return kept;
    }

    @Override
    public synchronized List<Refusal> refusals() {
        return List.copyOf(refusals);
    }

    @Override
    public int capacity() {
        return configuration.getKeptRevisions();
    }

    /** Keeps the revision that stopped serving, dropping the oldest beyond the bound and older copies of itself. */
    private void keep(EmbeddedRevision previous) {
        if (previous == null) {
            return;
        }
        retired.removeIf(r -> r.revision().equals(previous.revision()));
        retired.addFirst(previous.retire());
        while (retired.size() > configuration.getKeptRevisions() - 1) {
            retired.removeLast();
        }
    }

    @Override
    public Optional<ServedPolicy> serving() {
        return Optional.ofNullable(serving.get());
    }

    /** The serving revision with its evaluation path ({@link EvaluatingPolicy}), for the decision memo. */
    public Optional<EvaluatingPolicy> revision() {
        return Optional.ofNullable(serving.get());
    }

    @Override
    public PdpStatus status() {
        EmbeddedRevision revision = serving.get();
        if (revision == null) {
            return new PdpStatus(ENGINE, Optional.empty(), Optional.of(noBundle()), Optional.empty(), lastRefusal);
        }
        return new PdpStatus(ENGINE, Optional.of(revision.revision()), Optional.empty(), revision.keyId(),
                lastRefusal);
    }

    /** Stops the rebuild thread; a replacement being built is abandoned. */
    @PreDestroy
    public void close() {
        rebuild.shutdownNow();
    }

    private PolicyFault noBundle() {
        return new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE, "not ready: no verified bundle ("
                + lastRefusal.map(PolicyFault::detail).orElse("none offered yet") + ")");
    }

    private Activation refuse(String reason) {
        lastRefusal = Optional.of(new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE, reason));
        synchronized (this) {
            refusals.addFirst(new Refusal(clock.instant(), reason));
            while (refusals.size() > MAX_REFUSALS) {
                refusals.removeLast();
            }
        }
        EmbeddedRevision current = serving.get();
        if (current != null) {
            LOG.error("{}; revision {} keeps serving", reason, current.revision());
        } else {
            LOG.error("{}; no revision serving: every call is denied with policy_unavailable", reason);
        }
        return new Activation.Refused(reason);
    }

    /**
     * The refusal of a bundle that would roll the policy back (class comment), checked before anything is built: a
     * signed bundle without {@code iat}, with one too far in the future, or older than the newest ever accepted.
     */
    private Optional<Activation> rollback(WasmBundle bundle) {
        if (bundle.keyId().isEmpty()) {
            return Optional.empty(); // unsigned, allowed for development: nothing says when it was made
        }
        if (bundle.signedAt().isEmpty()) {
            return configuration.isAllowRollback() ? Optional.empty() : Optional.of(refuse("bundle revision "
                    + bundle.revision() + " is signed without iat, so it cannot be ordered against the revisions "
                    + "already accepted; sign it with make bundle (BUNDLE_SIGNING_KEY), or set "
                    + "gatehouse.policy.allow-rollback for development"));
        }
        Instant signedAt = bundle.signedAt().get();
        Instant latest = clock.instant().plus(configuration.getIatLeeway());
        if (signedAt.isAfter(latest)) {
            return Optional.of(refuse("bundle revision " + bundle.revision() + " was signed at " + signedAt
                    + ", in the future (later than " + latest + "): refused, it would lock out every honest revision"));
        }
        if (configuration.isAllowRollback()) {
            return Optional.empty();
        }
        Optional<Instant> newest;
        try {
            newest = accepted.newest();
        } catch (RuntimeException e) {
            return Optional.of(defer(bundle, e));
        }
        return newest.filter(signedAt::isBefore).map(floor -> refuse(older(bundle, floor)));
    }

    /** Records the bundle as the newest accepted; a refusal when a newer one was recorded meanwhile. */
    private Optional<Activation> record(WasmBundle bundle) {
        if (bundle.keyId().isEmpty() || bundle.signedAt().isEmpty() || configuration.isAllowRollback()) {
            return Optional.empty();
        }
        try {
            if (accepted.accept(bundle.signedAt().get(), bundle.revision())) {
                return Optional.empty();
            }
            return Optional.of(refuse(older(bundle, accepted.newest().orElse(bundle.signedAt().get()))));
        } catch (RuntimeException e) {
            return Optional.of(defer(bundle, e));
        }
    }

    private static String older(WasmBundle bundle, Instant floor) {
        return "bundle revision " + bundle.revision() + " was signed at " + bundle.signedAt().get()
                + ", before the newest revision ever accepted (" + floor + "): a rollback; set "
                + "gatehouse.policy.allow-rollback to roll back in development";
    }

    private Activation defer(WasmBundle bundle, RuntimeException e) {
        String reason = "bundle revision " + bundle.revision() + " not activated for now: the newest accepted "
                + "revision could not be read (" + e.getMessage() + "); it is offered again";
        lastRefusal = Optional.of(new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE, reason));
        LOG.warn(reason);
        return new Activation.Deferred(reason);
    }

    private static Timer queueWait(MeterRegistry meters, String outcome) {
        return Timer.builder(QUEUE_WAIT).description("time a decision waited for a free policy instance")
                .tag("outcome", outcome).register(meters);
    }

    /** The revision's contents, read once from its {@code enforcement} entry point on one of its instances. */
    private static Optional<PolicyContents> contents(WasmBundle bundle, WasmPool pool, List<String> problems) {
        WasmInstance instance = pool.borrow(java.time.Duration.ZERO).orElseThrow();
        PolicyOutcome<ResultSet> answer;
        try {
            answer = EmbeddedRevision.evaluateOn(instance, bundle, Entrypoint.ENFORCEMENT,
                    PolicyJson.MAPPER.createObjectNode());
        } finally {
            pool.release(instance);
        }
        PolicyOutcome<PolicyDocument> document = answer instanceof PolicyOutcome.Decided<ResultSet> decided
                ? DecisionParser.document(decided.value())
                : new PolicyOutcome.Failed<>(((PolicyOutcome.Failed<ResultSet>) answer).fault());
        if (document instanceof PolicyOutcome.Failed<PolicyDocument> failed) {
            problems.add("its enforcement document could not be read: " + failed.fault().detail());
            return Optional.empty();
        }
        EnforcementDocument.Read read = EnforcementDocument.read(
                ((PolicyOutcome.Decided<PolicyDocument>) document).value().value());
        if (read instanceof EnforcementDocument.Problems found) {
            problems.addAll(found.problems());
            return Optional.empty();
        }
        return Optional.of(((EnforcementDocument.Contents) read).contents());
    }

    /** Every instance of a new engine, each self-tested with the bundle's smoke cases. */
    private static PolicyOutcome<WasmPool> build(WasmBundle bundle, int size) {
        try {
            List<WasmInstance> instances = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                WasmInstance instance = new WasmInstance(bundle);
                PolicyOutcome<String> selfTest = SelfTest.run((entrypoint, in) ->
                        EmbeddedRevision.evaluateOn(instance, bundle, entrypoint, in), bundle.smokeCases());
                if (selfTest instanceof PolicyOutcome.Failed<String> failed) {
                    return new PolicyOutcome.Failed<>(failed.fault());
                }
                instances.add(instance);
            }
            return new PolicyOutcome.Decided<>(new WasmPool(instances));
        } catch (Throwable e) { // a corrupt module can fail anywhere inside the runtime, with Errors too
            return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE,
                    "the policy module cannot be instantiated: " + EmbeddedRevision.describe(e)));
        }
    }
}
