package dev.gatehouse.gateway.context;

import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.facts.Modes;
import java.util.Objects;
import java.util.Optional;

/**
 * What the transport hands the gate for one request: the authenticated principal plus the request's
 * {@code T3-Mode-Limit} header, already parsed. The PIP turns it into the caller's trusted context and facts on
 * every call; whom the header narrows is the policy's decision (docs/domain.md §1).
 *
 * @param identity  the principal
 * @param modeLimit the parsed {@code T3-Mode-Limit} header, when sent
 */
public record AuthenticatedCaller(Authenticated identity, Optional<Modes> modeLimit) {

    public AuthenticatedCaller {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(modeLimit, "modeLimit");
    }
}
