package dev.gatehouse.gateway.admin;

import dev.gatehouse.facade.http.ServiceEndpoint;
import dev.gatehouse.gateway.admin.audit.Actor;
import dev.gatehouse.gateway.admin.audit.Change;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import dev.gatehouse.gateway.credentials.CredentialCipher;
import dev.gatehouse.gateway.credentials.ServiceCredentials;
import dev.gatehouse.gateway.credentials.ServiceExchanges;
import dev.gatehouse.gateway.credentials.StoredCredentials;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The Project, Wiki and host clients of this environment for the admin API and the console: where each is reached,
 * whether its credential works as this replica last saw it, and replacing the credential write-only. A replaced
 * credential is sealed with the operator's key ({@link CredentialCipher}), stored for every replica and used from the
 * next call on; removing it goes back to the configured credential file or value. Every change is audited without
 * the value. A failing credential is reported here and in {@code /health} and deletes nothing.
 */
@Singleton
public class ServiceClientAdmin {

    /** The services of this environment, in the order shown. */
    public static final List<String> SERVICES = List.of("project", "wiki", "host");

    /** The longest credential accepted, in characters. */
    static final int MAX_CREDENTIAL_CHARS = 4096;

    private final Map<String, ServiceEndpoint> endpoints;
    private final ServiceCredentials credentials;
    private final StoredCredentials stored;
    private final ServiceExchanges exchanges;
    private final ChangeAudit audit;

    public ServiceClientAdmin(Collection<ServiceEndpoint> endpoints, ServiceCredentials credentials,
            StoredCredentials stored, ServiceExchanges exchanges, ChangeAudit audit) {
        this.endpoints = endpoints.stream().collect(Collectors.toMap(ServiceEndpoint::getName, Function.identity(),
                (a, b) -> a));
        this.credentials = credentials;
        this.stored = stored;
        this.exchanges = exchanges;
        this.audit = audit;
    }

    /** Every service client, in {@link #SERVICES} order. */
    public List<ServiceClientView> clients() {
        return SERVICES.stream().map(this::view).toList();
    }

    /** Whether a credential can be stored at all (a key file is configured). */
    public boolean canStore() {
        return credentials.cipher().isPresent();
    }

    /**
     * Replaces {@code service}'s credential. Refused for an unknown service, a blank credential, one with a character
     * that is not visible ASCII (white space, controls, anything beyond U+007E) or longer than
     * {@value #MAX_CREDENTIAL_CHARS} characters, or when no key file is configured.
     */
    public AdminResult<ServiceClientView> replace(String service, String credential, Actor actor) {
        if (!SERVICES.contains(service)) {
            return new AdminResult.NotFound<>();
        }
        if (credential == null || credential.isBlank()) {
            return AdminResult.refused(FieldProblem.missing("credential"));
        }
        // It is sent in an Authorization header: only visible ASCII can be a bearer token there (RFC 6750 §2.1).
        if (credential.length() > MAX_CREDENTIAL_CHARS || credential.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            return AdminResult.refused(FieldProblem.invalid("credential", "A credential is one token: at most "
                    + MAX_CREDENTIAL_CHARS + " visible ASCII characters, without spaces or control characters."));
        }
        Optional<CredentialCipher> cipher = credentials.cipher();
        if (cipher.isEmpty()) {
            return AdminResult.refused(FieldProblem.invalid("credential", "No credential key is configured"
                    + " (gatehouse.credentials.key-file), so nothing can be stored; the credential file stays in use."));
        }
        return audit.write(actor, () -> {
            long version = stored.put(service, cipher.get().seal(service, credential));
            return ChangeAudit.Written.changed(new AdminResult.Done<>(view(service)),
                    Change.versioned("service.credential.replace", service, Optional.empty(), version - 1, version,
                            "credential replaced, sealed with key " + cipher.get().keyId()));
        });
    }

    /** Removes the stored credential of {@code service}; the configured one is used from the next call on. */
    public AdminResult<ServiceClientView> remove(String service, Actor actor) {
        if (!SERVICES.contains(service)) {
            return new AdminResult.NotFound<>();
        }
        return audit.write(actor, () -> {
            Optional<Long> removed = stored.remove(service);
            if (removed.isEmpty()) {
                return ChangeAudit.Written.unchanged(new AdminResult.NotFound<ServiceClientView>());
            }
            return ChangeAudit.Written.changed(new AdminResult.Done<>(view(service)),
                    Change.versioned("service.credential.remove", service, Optional.empty(), removed.get(), 0,
                            "stored credential removed; the configured credential is used"));
        });
    }

    private ServiceClientView view(String service) {
        Optional<ServiceEndpoint> endpoint = Optional.ofNullable(endpoints.get(service));
        Optional<StoredCredentials.Stored> row = stored.find(service);
        String source = switch (credentials.state(service)) {
            case STORED -> "stored";
            case UNREADABLE -> "unreadable";
            case CONFIGURED -> endpoint.map(ServiceEndpoint::configuredSource).orElse("none");
        };
        Optional<ServiceExchanges.Last> last = exchanges.last(service);
        String state = exchanges.failing(service) ? "failing"
                : last.filter(l -> l.outcome().matches("[2-5]xx|403")).isPresent() ? "works" : "unknown";
        Optional<Instant> changed = source.equals("file") ? endpoint.flatMap(ServiceEndpoint::getCredentialFile)
                .flatMap(ServiceClientAdmin::modified) : row.map(StoredCredentials.Stored::updatedAt);
        return new ServiceClientView(service, endpoint.flatMap(ServiceEndpoint::getUrl).map(Object::toString)
                .orElse(null), source, state, last.map(ServiceExchanges.Last::outcome).orElse(null),
                last.map(l -> seconds(l.at())).orElse(null),
                exchanges.lastAuthenticationFailure(service).map(ServiceClientAdmin::seconds).orElse(null),
                changed.map(ServiceClientAdmin::seconds).orElse(null),
                row.map(StoredCredentials.Stored::version).orElse(null));
    }

    private static String seconds(Instant at) {
        return at.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static Optional<Instant> modified(Path file) {
        try {
            return Optional.of(Files.getLastModifiedTime(file).toInstant());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
