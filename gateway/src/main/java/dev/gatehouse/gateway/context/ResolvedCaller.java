package dev.gatehouse.gateway.context;

import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.ThreadShell;
import java.util.Map;
import java.util.Objects;

/**
 * The PIP's answer for one call: the caller's identity for the handlers, the facts the PDP decides on, and the shells
 * of the threads the call names. All are built from the same reads, so the decision and the facade call concern the
 * same caller.
 *
 * @param context the trusted context (identity for facade calls; never sent to the PDP as such)
 * @param facts   what the PDP sees about the caller
 * @param targets the shell of each thread the call names, by id, in the order first named; empty for a request that
 *                names none
 */
public record ResolvedCaller(TrustedContext context, CallerFacts facts, Map<String, ThreadShell> targets) {

    public ResolvedCaller {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(facts, "facts");
        Objects.requireNonNull(targets, "targets");
    }
}
