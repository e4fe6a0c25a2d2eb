package dev.gatehouse.facade.http;

import java.util.Optional;

/**
 * Where a {@link ServiceClient} takes its service credential from, asked before every exchange, so a credential
 * replaced there is used from the next call on. The gateway supplies one bean (credentials stored encrypted in its
 * shared store); without it, or when it has none for a service, the endpoint's configured {@code credential} or
 * {@code credential-file} is used ({@link ServiceEndpoint}). A source must not throw and never logs the value.
 */
@FunctionalInterface
public interface CredentialSource {

    /** Has no credential of its own: every endpoint uses its configured one. */
    CredentialSource CONFIGURED = service -> Optional.empty();

    /**
     * @param service the service name ({@code project}, {@code wiki}, {@code host})
     * @return the credential to send now, or empty to use the endpoint's configured one
     */
    Optional<String> credential(String service);
}
