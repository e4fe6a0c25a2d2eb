package dev.gatehouse.gateway.admin;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Which provider kinds the host may attach sessions for ({@code gatehouse.attach.*}). The kind is data: it is
 * checked here, stored with the session and written to the decision log, and no other code knows provider names.
 */
@ConfigurationProperties(AttachProperties.PREFIX)
public class AttachProperties {

    public static final String PREFIX = "gatehouse.attach";

    private List<String> providers = List.of("codex", "claude", "cursor", "grok", "opencode");
    private Map<String, String> localOnly = Map.of("opencode", "OpenCode");

    /** The accepted provider kinds (exact, lower case). */
    public List<String> getProviders() {
        return providers;
    }

    public void setProviders(List<String> providers) {
        this.providers = providers.stream().map(p -> p.strip().toLowerCase(Locale.ROOT)).toList();
    }

    /**
     * Kinds accepted only when the host manages the provider's server itself ({@code managed: local}, the default),
     * each with the display name used in the refusal of an externally managed one.
     */
    public Map<String, String> getLocalOnly() {
        return localOnly;
    }

    public void setLocalOnly(Map<String, String> localOnly) {
        this.localOnly = Map.copyOf(localOnly);
    }

    /** The display name of a local-only kind. */
    Optional<String> localOnlyName(String provider) {
        return Optional.ofNullable(localOnly.get(provider));
    }
}
