package dev.gatehouse.gateway.context;

import dev.gatehouse.facts.CallerFacts;
import java.util.Objects;

/**
 * The PIP's answer for one call: the caller's identity for the handlers and the facts the PDP decides on. Both are
 * built from the same reads, so the decision and the facade call concern the same caller.
 *
 * @param context the trusted context (identity for facade calls; never sent to the PDP as such)
 * @param facts   what the PDP sees about the caller
 */
public record ResolvedCaller(TrustedContext context, CallerFacts facts) {

    public ResolvedCaller {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(facts, "facts");
    }
}
