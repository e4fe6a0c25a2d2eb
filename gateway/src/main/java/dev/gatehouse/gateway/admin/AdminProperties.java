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

    private Optional<String> credential = Optional.empty();

    public Optional<String> getCredential() {
        return credential;
    }

    public void setCredential(Optional<String> credential) {
        this.credential = credential.filter(c -> !c.isBlank());
    }
}
