package dev.gatehouse.gateway.credentials;

import dev.gatehouse.facade.http.CredentialSource;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The facades' {@link CredentialSource}: a credential an operator stored for the service (sealed in the shared store,
 * opened with the key file), else the service's configured credential file or value. Asked before every exchange, so
 * a replacement is used from the next call on. A stored credential that does not open (another key, altered) is not
 * used and is reported ({@link #state}); when the store does not answer, the configured credential is used.
 */
@Singleton
public class ServiceCredentials implements CredentialSource {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceCredentials.class);

    /** Where the credential a service uses now comes from. */
    public enum Source {
        /** stored through the console or the admin API, opened with the key file */
        STORED,
        /** stored, but it does not open with the configured key (or no key is configured) */
        UNREADABLE,
        /** none stored: the configured credential file or value */
        CONFIGURED
    }

    private final StoredCredentials stored;
    private final Optional<CredentialCipher> cipher;

    public ServiceCredentials(StoredCredentials stored, CredentialProperties properties) {
        this.stored = stored;
        this.cipher = properties.getKeyFile().map(file -> {
            try {
                return new CredentialCipher(Base64.getDecoder().decode(
                        Files.readString(file, StandardCharsets.US_ASCII).strip()));
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalStateException("gatehouse.credentials.key-file " + file
                        + " must hold the base64 of 32 bytes (openssl rand -base64 32): " + e.getMessage(), e);
            }
        });
    }

    @Override
    public Optional<String> credential(String service) {
        try {
            return stored.find(service).flatMap(s -> cipher.flatMap(c -> c.open(service, s.sealed())));
        } catch (StoreUnavailableException e) {
            LOG.debug("stored {} credential not read, the configured one is used: {}", service, e.getMessage());
            return Optional.empty();
        }
    }

    /** Where {@code service}'s credential comes from now. */
    public Source state(String service) {
        Optional<StoredCredentials.Stored> row = stored.find(service);
        if (row.isEmpty()) {
            return Source.CONFIGURED;
        }
        return cipher.flatMap(c -> c.open(service, row.get().sealed())).isPresent() ? Source.STORED
                : Source.UNREADABLE;
    }

    /** The cipher of the key file; empty when no key is configured (nothing can be stored then). */
    public Optional<CredentialCipher> cipher() {
        return cipher;
    }
}
