package dev.gatehouse.gateway.policy.api;

import dev.gatehouse.gateway.context.TrustedContext.Modes;
import java.util.Optional;

/**
 * What the PEP must do with an allowed call (decision {@code obligations}, schemas/decision.json).
 *
 * @param modes    resolved modes for rows with mode fields: requested, or the caller's own where the request
 *                 said {@code inherit} or nothing (DOMAIN.md §3, start_threads); the handler uses these and not
 *                 the raw arguments
 * @param wikiPath resolved full wiki path, {@code agents/<agentId>/<relative>} (DOMAIN.md §7); the handler uses
 *                 it and nothing else
 */
public record Obligations(Optional<Modes> modes, Optional<String> wikiPath) {

    /** No obligations (a denied call, or an allowed row without modes or paths). */
    public static final Obligations NONE = new Obligations(Optional.empty(), Optional.empty());
}
