package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.DecisionInput;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The decision memo: a {@link PolicyDecisionPoint} in front of an engine that answers a decision input it has
 * already decided under the same bundle revision without evaluating it again.
 *
 * <p>Why this is exact: the policy is a pure function of (bundle, decision input). The bundle is named by the
 * revision the engine reports in {@link PdpStatus#bundleRevision()}, and the input by the very JSON text
 * {@link DecisionInputMapper} writes for the engine (members in a fixed order, thread targets and {@code unicode}
 * segments sorted), so an equal key means the engine would read byte-equal input under the same policy. The
 * capabilities file (scripts/wasm-capabilities.json) admits no built-in that reads time, randomness or the network.
 * Argument members keep the order they arrived in: the same arguments sent in another order miss, never hit wrongly.
 *
 * <p>What is kept: only complete decisions and tool lists ({@link PolicyOutcome.Decided}), never a fault, so an
 * unavailable engine is asked again on the next call. Inputs longer than
 * {@link MemoConfiguration#getMaxInputChars()} are never kept. Each entry point holds at most
 * {@link MemoConfiguration#getMaxEntries()} entries (Caffeine's size-based eviction). When the reported revision
 * changes, both memos are emptied, and a key carries its revision anyway, so a new bundle never sees an old answer.
 *
 * <p>A hit returns the memoised value with {@code evalMicros} set to the time of the hit itself (marshalling and
 * lookup) and the {@code bundleRevision} of the evaluation that produced it. Counters {@value #COUNTER} with tags
 * {@code entrypoint} ({@code decision}, {@code visible_tools}) and {@code outcome} ({@code hit}, {@code miss},
 * {@code skipped} for an input too long to keep or an engine without a revision).
 */
public final class MemoizingPdp implements PolicyDecisionPoint {

    /** Counter of memo lookups, tagged {@code entrypoint} and {@code outcome}. */
    public static final String COUNTER = "gatehouse.pdp.memo";

    private final EvaluatingPdp engine;
    private final int maxInputChars;
    private final Memo<Decision> decisions;
    private final Memo<VisibleTools> listings;
    private volatile String revision = "";

    /**
     * @param engine        the engine that evaluates on a miss; its {@link PdpStatus#bundleRevision()} names the
     *                      bundle every key is taken under, so it must be the engine's own (local) revision
     * @param configuration sizes
     * @param meters        where the hit/miss counters are registered
     */
    public MemoizingPdp(EvaluatingPdp engine, MemoConfiguration configuration, MeterRegistry meters) {
        this.engine = engine;
        this.maxInputChars = configuration.getMaxInputChars();
        this.decisions = new Memo<>(Entrypoint.DECISION, configuration.getMaxEntries(), meters);
        this.listings = new Memo<>(Entrypoint.VISIBLE_TOOLS, configuration.getMaxEntries(), meters);
    }

    @Override
    public PolicyOutcome<Decision> decide(DecisionInput input) {
        return answer(input, decisions, DecisionInputMapper::forCall, engine::decide, engine::decide,
                Decision::bundleRevision, Decision::withEvalMicros);
    }

    @Override
    public PolicyOutcome<VisibleTools> visibleTools(DecisionInput input) {
        return answer(input, listings, DecisionInputMapper::forListing, engine::visibleTools, engine::visibleTools,
                VisibleTools::bundleRevision, VisibleTools::withEvalMicros);
    }

    @Override
    public PdpStatus status() {
        return engine.status();
    }

    /** Entries currently held for {@code decision} plus {@code visible_tools} (for tests and the benchmark). */
    public long size() {
        return decisions.cache.estimatedSize() + listings.cache.estimatedSize();
    }

    private <T> PolicyOutcome<T> answer(DecisionInput input, Memo<T> memo, Function<DecisionInput, ObjectNode> marshal,
            Function<DecisionInput, PolicyOutcome<T>> typed, BiFunction<ObjectNode, Long, PolicyOutcome<T>> evaluate,
            Function<T, String> revisionOf, BiFunction<T, Long, T> timed) {
        long start = System.nanoTime();
        Optional<String> current = engine.status().bundleRevision();
        ObjectNode json;
        try {
            json = marshal.apply(input);
        } catch (RuntimeException | StackOverflowError e) { // the engine reports the same input as its fault
            memo.skipped.increment();
            return typed.apply(input);
        }
        String text = PolicyJson.write(json);
        if (current.isEmpty() || text.length() > maxInputChars) {
            memo.skipped.increment();
            return evaluate.apply(json, start);
        }
        flushOnNewRevision(current.get());
        T known = memo.cache.getIfPresent(new Key(current.get(), text));
        if (known != null) {
            memo.hits.increment();
            return new PolicyOutcome.Decided<>(timed.apply(known, micros(start)));
        }
        memo.misses.increment();
        PolicyOutcome<T> outcome = evaluate.apply(json, start);
        if (outcome instanceof PolicyOutcome.Decided<T> decided) {
            memo.cache.put(new Key(revisionOf.apply(decided.value()), text), decided.value());
        }
        return outcome;
    }

    private void flushOnNewRevision(String current) {
        if (!current.equals(revision)) {
            synchronized (this) {
                if (!current.equals(revision)) {
                    decisions.cache.invalidateAll();
                    listings.cache.invalidateAll();
                    revision = current;
                }
            }
        }
    }

    private static long micros(long startNanos) {
        return TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - startNanos);
    }

    /** A bundle revision and the exact decision-input JSON evaluated under it. */
    private record Key(String revision, String input) {
    }

    /** One entry point's bounded memo and its counters. */
    private static final class Memo<T> {
        final Cache<Key, T> cache;
        final Counter hits;
        final Counter misses;
        final Counter skipped;

        Memo(Entrypoint entrypoint, long maxEntries, MeterRegistry meters) {
            // Maintenance on the calling thread: no hop to the common pool on the decision path.
            this.cache = Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build();
            String name = entrypoint == Entrypoint.DECISION ? "decision" : "visible_tools";
            this.hits = counter(meters, name, "hit");
            this.misses = counter(meters, name, "miss");
            this.skipped = counter(meters, name, "skipped");
        }

        private static Counter counter(MeterRegistry meters, String entrypoint, String outcome) {
            return Counter.builder(COUNTER).description("decision memo lookups").tag("entrypoint", entrypoint)
                    .tag("outcome", outcome).register(meters);
        }
    }
}
