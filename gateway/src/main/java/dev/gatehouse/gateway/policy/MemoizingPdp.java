package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The decision memo: a {@link PolicyDecisionPoint} in front of an engine that answers a decision input it has
 * already decided on the same revision without evaluating it again.
 *
 * <p>Why this is exact: the policy is a pure function of (revision, decision input). Each served revision gets memos
 * of its own, dropped with it when the next one is activated, and the input is named by the very JSON text
 * {@link DecisionInputMapper} writes for the engine (members in a fixed order, thread targets and {@code unicode}
 * segments sorted), so an equal key means the engine would read byte-equal input under the same policy. The
 * capabilities file (scripts/wasm-capabilities.json) admits no built-in that reads time, randomness or the network.
 * Argument members keep the order they arrived in: the same arguments sent in another order miss, never hit wrongly.
 *
 * <p>What is kept: only complete decisions and tool lists ({@link PolicyOutcome.Decided}), never a fault, so an
 * unavailable engine is asked again on the next call. Inputs longer than
 * {@link MemoConfiguration#getMaxInputChars()} are never kept. Each entry point holds at most
 * {@link MemoConfiguration#getMaxEntries()} entries per revision (Caffeine's size-based eviction).
 *
 * <p>A hit returns the memoised value with {@code evalMicros} set to the time of the hit itself (marshalling and
 * lookup; only the lookup for a call whose input the PEP wrote already, {@link WrittenInput}). Counters
 * {@value #COUNTER} with tags {@code entrypoint} ({@code decision}, {@code visible_tools}) and {@code outcome}
 * ({@code hit}, {@code miss}, {@code skipped} for an input too long to keep).
 */
public final class MemoizingPdp implements PolicyDecisionPoint {

    /** Counter of memo lookups, tagged {@code entrypoint} and {@code outcome}. */
    public static final String COUNTER = "gatehouse.pdp.memo";

    private final PolicyDecisionPoint engine;
    private final Supplier<Optional<EvaluatingPolicy>> revisions;
    private final MemoConfiguration configuration;
    private final Counters decisions;
    private final Counters listings;
    private final AtomicReference<Memoized> current = new AtomicReference<>();

    /**
     * @param engine        the engine whose status this PDP reports
     * @param revisions     the engine's serving revision, with its evaluation path
     * @param configuration sizes
     * @param meters        where the hit/miss counters are registered
     */
    public MemoizingPdp(PolicyDecisionPoint engine, Supplier<Optional<EvaluatingPolicy>> revisions,
            MemoConfiguration configuration, MeterRegistry meters) {
        this.engine = engine;
        this.revisions = revisions;
        this.configuration = configuration;
        this.decisions = new Counters("decision", meters);
        this.listings = new Counters("visible_tools", meters);
    }

    /** The memo in front of the embedded engine, whose revisions it memoises. */
    public static MemoizingPdp over(EmbeddedPdp engine, MemoConfiguration configuration, MeterRegistry meters) {
        return new MemoizingPdp(engine, engine::revision, configuration, meters);
    }

    @Override
    public Optional<ServedPolicy> serving() {
        Optional<EvaluatingPolicy> revision = revisions.get();
        if (revision.isEmpty()) {
            return Optional.empty();
        }
        EvaluatingPolicy served = revision.get();
        Memoized memo = current.get();
        if (memo == null || memo.revision != served) {
            // A revision's memos live as long as it serves; a call still on an older revision may briefly start
            // them anew, which only costs misses.
            memo = current.updateAndGet(m -> m != null && m.revision == served ? m : new Memoized(served));
        }
        return Optional.of(memo);
    }

    @Override
    public PdpStatus status() {
        return engine.status();
    }

    /** Entries currently held for {@code decision} plus {@code visible_tools} on the serving revision. */
    public long size() {
        Memoized memo = current.get();
        return memo == null ? 0 : memo.decisions.estimatedSize() + memo.listings.estimatedSize();
    }

    /** An engine call on input JSON the memo has written already (its key), so the engine does not write it again. */
    @FunctionalInterface
    private interface Evaluation<T> {
        PolicyOutcome<T> apply(ObjectNode input, String inputJson, long startNanos);
    }

    /** One revision with its two memos. */
    private final class Memoized extends ForwardingServedPolicy {

        final EvaluatingPolicy revision;
        final Cache<String, Decision> decisions = cache();
        final Cache<String, VisibleTools> listings = cache();

        Memoized(EvaluatingPolicy revision) {
            super(revision);
            this.revision = revision;
        }

        @Override
        public PolicyOutcome<Decision> decide(DecisionInput input) {
            return answer(input, decisions, MemoizingPdp.this.decisions, DecisionInputMapper::forCall,
                    revision::decide, revision::decide, Decision::withEvalMicros);
        }

        @Override
        public PolicyOutcome<Decision> decide(DecisionInput input, WrittenInput written) {
            return known(written.json(), written.text(), System.nanoTime(), decisions, MemoizingPdp.this.decisions,
                    revision::decide, Decision::withEvalMicros);
        }

        @Override
        public PolicyOutcome<VisibleTools> visibleTools(DecisionInput input) {
            return answer(input, listings, MemoizingPdp.this.listings, DecisionInputMapper::forListing,
                    revision::visibleTools, revision::visibleTools, VisibleTools::withEvalMicros);
        }

        private <T> PolicyOutcome<T> answer(DecisionInput input, Cache<String, T> memo, Counters counters,
                Function<DecisionInput, ObjectNode> marshal, Function<DecisionInput, PolicyOutcome<T>> typed,
                Evaluation<T> evaluate, BiFunction<T, Long, T> timed) {
            long start = System.nanoTime();
            ObjectNode json;
            String text;
            try {
                json = marshal.apply(input);
                text = PolicyJson.write(json);
            } catch (RuntimeException | StackOverflowError e) { // the engine reports the same input as its fault
                counters.skipped.increment();
                return typed.apply(input);
            }
            return known(json, text, start, memo, counters, evaluate, timed);
        }

        /** The memoised answer to input written as {@code text}, or the engine's, kept when complete. */
        private <T> PolicyOutcome<T> known(ObjectNode json, String text, long start, Cache<String, T> memo,
                Counters counters, Evaluation<T> evaluate, BiFunction<T, Long, T> timed) {
            if (text.length() > configuration.getMaxInputChars()) {
                counters.skipped.increment();
                return evaluate.apply(json, text, start);
            }
            T known = memo.getIfPresent(text);
            if (known != null) {
                counters.hits.increment();
                return new PolicyOutcome.Decided<>(timed.apply(known, micros(start)));
            }
            counters.misses.increment();
            PolicyOutcome<T> outcome = evaluate.apply(json, text, start);
            if (outcome instanceof PolicyOutcome.Decided<T> decided) {
                memo.put(text, decided.value());
            }
            return outcome;
        }
    }

    private <T> Cache<String, T> cache() {
        // Maintenance on the calling thread: no hop to the common pool on the decision path.
        return Caffeine.newBuilder().maximumSize(configuration.getMaxEntries()).executor(Runnable::run).build();
    }

    private static long micros(long startNanos) {
        return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNanos);
    }

    /** One entry point's counters. */
    private static final class Counters {
        final Counter hits;
        final Counter misses;
        final Counter skipped;

        Counters(String entrypoint, MeterRegistry meters) {
            this.hits = counter(meters, entrypoint, "hit");
            this.misses = counter(meters, entrypoint, "miss");
            this.skipped = counter(meters, entrypoint, "skipped");
        }

        private static Counter counter(MeterRegistry meters, String entrypoint, String outcome) {
            return Counter.builder(COUNTER).description("decision memo lookups").tag("entrypoint", entrypoint)
                    .tag("outcome", outcome).register(meters);
        }
    }
}
