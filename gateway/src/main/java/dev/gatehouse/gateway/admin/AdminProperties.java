package dev.gatehouse.gateway.admin;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.util.Optional;

/**
 * The admin API's own credential ({@code gatehouse.admin.credential}), set from the environment
 * ({@code GATEHOUSE_ADMIN_CREDENTIAL}) or a config file outside the repository; never logged. Without it the admin
 * API refuses every request.
 */
@ConfigurationProperties(AdminProperties.PREFIX)
public class AdminProperties {

    public static final String PREFIX = "gatehouse.admin";

    /** 1 MiB: the largest admin body (an agent's settings, a credential) is a few KiB. */
    private static final int DEFAULT_MAX_BODY_BYTES = 1 << 20;

    private Optional<String> credential = Optional.empty();
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;

    public Optional<String> getCredential() {
        return credential;
    }

    public void setCredential(Optional<String> credential) {
        this.credential = credential.filter(c -> !c.isBlank());
    }

    /** The longest admin request body, in bytes ({@code gatehouse.admin.max-body-bytes}); longer ones are 413. */
    public int getMaxBodyBytes() {
        return maxBodyBytes;
    }

    public void setMaxBodyBytes(int maxBodyBytes) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("gatehouse.admin.max-body-bytes must be at least 1");
        }
        this.maxBodyBytes = maxBodyBytes;
    }
}
