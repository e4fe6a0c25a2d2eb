package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.policy.api.CallerFacts;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Bench-only door to the gateway's own {@code unicode} facts: {@link SegmentCharacters} is package-private, and the
 * benchmarks must build decision inputs exactly as {@link Gate#call} does instead of a copy of its logic. Lives in the
 * bench module under the gate package (a split package on the plain classpath); the gateway itself is unchanged.
 */
public final class BenchUnicodeFacts {

    private BenchUnicodeFacts() {
    }

    /** {@code SegmentCharacters.of}: segment → sorted Unicode categories, for non-plain-ASCII segments. */
    public static Map<String, List<String>> of(Object arguments, Collection<String> pathFields, CallerFacts caller) {
        return SegmentCharacters.of(arguments, pathFields, caller);
    }
}
