package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.SegmentCharacters;
import dev.gatehouse.facts.CallerFacts;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Test door to the gate's own {@code unicode} facts ({@link SegmentCharacters} is package-private). */
public final class UnicodeFacts {

    private UnicodeFacts() {
    }

    /** {@code SegmentCharacters.of}: segment → sorted Unicode categories, as {@link Gate#call} computes them. */
    public static Map<String, List<String>> of(Object arguments, Collection<String> pathFields, CallerFacts caller) {
        return SegmentCharacters.of(arguments, pathFields, caller.subtreeIds());
    }
}
