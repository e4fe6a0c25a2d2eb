package dev.gatehouse.facade.http;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where one outside service lives and how to reach it: {@code gatehouse.services.<name>.*} with
 * {@code <name>} one of {@code project}, {@code wiki}, {@code host}.
 *
 * <ul>
 *   <li>{@code url}: base URL, e.g. {@code http://127.0.0.1:8181}; when absent the integration is disabled and
 *       every call is {@code unavailable}</li>
 *   <li>{@code credential}: the service credential, sent as {@code Authorization: Bearer}; set it through the
 *       environment ({@code GATEHOUSE_SERVICES_WIKI_CREDENTIAL}) rather than a file in the repository</li>
 *   <li>{@code credential-file}: alternative to {@code credential}; read on every call, so a rotated credential
 *       takes effect without a restart</li>
 *   <li>{@code deadline}: the whole-call deadline (connect, send, receive), default 10 s</li>
 * </ul>
 * The credential is never logged: {@link #toString()} leaves it out.
 */
@EachProperty("gatehouse.services")
public final class ServiceEndpoint {

    static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);

    private final String name;
    private URI url;
    private String credential;
    private Path credentialFile;
    private Duration deadline = DEFAULT_DEADLINE;

    public ServiceEndpoint(@Parameter String name) {
        this.name = name;
    }

    /** Builds an endpoint outside a bean context (tests, tools). */
    public static ServiceEndpoint of(String name, URI url, String credential, Duration deadline) {
        ServiceEndpoint endpoint = new ServiceEndpoint(name);
        endpoint.setUrl(url);
        endpoint.setCredential(credential);
        endpoint.setDeadline(deadline);
        return endpoint;
    }

    public String getName() {
        return name;
    }

    public Optional<URI> getUrl() {
        return Optional.ofNullable(url);
    }

    public void setUrl(URI url) {
        this.url = url;
    }

    public void setCredential(String credential) {
        this.credential = credential;
    }

    public Optional<Path> getCredentialFile() {
        return Optional.ofNullable(credentialFile);
    }

    public void setCredentialFile(Path credentialFile) {
        this.credentialFile = credentialFile;
    }

    public Duration getDeadline() {
        return deadline;
    }

    public void setDeadline(Duration deadline) {
        this.deadline = deadline;
    }

    /** Where the configured credential comes from, for operators: {@code file}, {@code value} or {@code none}. */
    public String configuredSource() {
        if (credentialFile != null) {
            return "file";
        }
        return credential != null && !credential.isBlank() ? "value" : "none";
    }

    /** The credential as configured, or read now from {@code credential-file}; empty when neither is set. */
    Optional<String> currentCredential() {
        if (credentialFile != null) {
            return CredentialFile.read(credentialFile);
        }
        return Optional.ofNullable(credential).filter(c -> !c.isBlank());
    }

    @Override
    public String toString() {
        return "ServiceEndpoint[" + name + " " + url + ", deadline " + deadline.toMillis() + " ms]";
    }
}
