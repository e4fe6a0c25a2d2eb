package dev.gatehouse.gateway.policy.api;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the PEP must do with an allowed call (decision {@code obligations}, schemas/decision.json). {@code modes} and
 * {@code wikiPaths} are keyed by the argument field of the access-table row each applies to; {@code wikiRoot}
 * applies to the whole call. The gate refuses an allow that lacks an obligation the row implies, so a handler finds
 * every one its row names.
 *
 * @param modes     mode field → resolved mode (requested, or the caller's own for {@code inherit} or omitted;
 *                  docs/domain.md §3); the handler uses these and never the raw mode arguments
 * @param wikiPaths path field → resolved full wiki path {@code <wikiRoot>/<relative>} (docs/domain.md §7); the
 *                  handler uses these and never the raw path arguments
 * @param wikiRoot  the caller's wiki subtree, chosen by the policy from the caller facts (docs/domain.md §1, §7);
 *                  present on every allowed call whose row has paths, and the only subtree its handler works in
 * @param quota     the bucket an allowed tools/call is charged to (docs/domain.md §10); present on every allowed
 *                  tools/call, absent on denials, notices and tools/list
 */
public record Obligations(Map<String, String> modes, Map<String, String> wikiPaths, Optional<String> wikiRoot,
        Optional<Quota> quota) {

    /** No obligations (a denied call). */
    public static final Obligations NONE = new Obligations(Map.of(), Map.of(), Optional.empty());

    public Obligations {
        modes = Map.copyOf(modes);
        wikiPaths = Map.copyOf(wikiPaths);
        Objects.requireNonNull(wikiRoot, "wikiRoot");
        Objects.requireNonNull(quota, "quota");
    }

    /** Obligations without a quota (a notice decision, or a call decided by a revision that names none). */
    public Obligations(Map<String, String> modes, Map<String, String> wikiPaths, Optional<String> wikiRoot) {
        this(modes, wikiPaths, wikiRoot, Optional.empty());
    }

    /** The resolved mode for the row's mode field {@code field}. */
    public Optional<String> mode(String field) {
        return Optional.ofNullable(modes.get(field));
    }

    /** The resolved full wiki path for the row's path field {@code field}. */
    public Optional<String> wikiPath(String field) {
        return Optional.ofNullable(wikiPaths.get(field));
    }
}
