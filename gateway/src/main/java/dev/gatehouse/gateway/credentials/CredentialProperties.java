package dev.gatehouse.gateway.credentials;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code gatehouse.credentials.key-file} ({@code GATEHOUSE_CREDENTIALS_KEY_FILE}): the file holding the key that seals
 * service credentials entered through the console or the admin API (base64 of 32 random bytes, e.g.
 * {@code openssl rand -base64 32}; keep it mode 600, outside the repository and out of the database). Every replica
 * needs the same file. Unset: such credentials can be neither stored nor used, and the configured credential files
 * and values stay the only source.
 */
@ConfigurationProperties(CredentialProperties.PREFIX)
public class CredentialProperties {

    public static final String PREFIX = "gatehouse.credentials";

    private String keyFile;

    public Optional<Path> getKeyFile() {
        return Optional.ofNullable(keyFile).filter(f -> !f.isBlank()).map(Path::of);
    }

    public void setKeyFile(String keyFile) {
        this.keyFile = keyFile;
    }
}
