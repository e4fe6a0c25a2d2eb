package dev.gatehouse.gateway.auth;

import dev.gatehouse.gateway.context.TrustedContext.Modes;
import java.util.Objects;
import java.util.Optional;

/**
 * What the transport hands the gate for one request: the authenticated principal plus the outside agent's
 * {@code T3-Mode-Limit} header, already parsed. The PIP turns it into a {@code TrustedContext} on every call.
 *
 * @param identity  the principal
 * @param modeLimit the parsed {@code T3-Mode-Limit} header, when sent; it only narrows (the policy applies it)
 */
public record AuthenticatedCaller(Authenticated identity, Optional<Modes> modeLimit) {

    public AuthenticatedCaller {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(modeLimit, "modeLimit");
    }
}
