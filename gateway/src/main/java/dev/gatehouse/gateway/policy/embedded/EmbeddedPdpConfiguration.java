package dev.gatehouse.gateway.policy.embedded;

import dev.gatehouse.gateway.policy.bundle.BundleVerification;
import dev.gatehouse.gateway.policy.bundle.VerificationKey;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Settings of the embedded (Wasm) PDP, under {@code gatehouse.policy}. The verification settings are named after
 * {@code opa run}'s flags ({@code --verification-key}, {@code --verification-key-id}, {@code --signing-alg},
 * {@code --scope}, {@code --exclude-files-verify}), so one key and scope serve both engines.
 */
@ConfigurationProperties(EmbeddedPdpConfiguration.PREFIX)
public class EmbeddedPdpConfiguration {

    public static final String PREFIX = "gatehouse.policy";

    private String bundlePath = "target/bundle/bundle.tar.gz";
    private Integer poolSize;
    private Duration decisionDeadline = Duration.ofSeconds(2);
    private String verificationKey;
    private String verificationKeyId = "default";
    private String signingAlg = "RS256";
    private String scope = "";
    private List<String> excludeFilesVerify = List.of();
    private boolean allowUnsigned;
    private boolean allowRollback;
    private Duration iatLeeway = Duration.ofSeconds(60);
    private Duration bundleWatchInterval = Duration.ofSeconds(1);
    private String regoBundlePath;
    private int keptRevisions = 5;

    /**
     * The Wasm bundle file ({@code make bundle}); a relative path is resolved against the working directory.
     * Default {@code target/bundle/bundle.tar.gz}.
     */
    public String getBundlePath() {
        return bundlePath;
    }

    public void setBundlePath(String bundlePath) {
        this.bundlePath = bundlePath;
    }

    /** The bundle file as an absolute path. */
    public Path bundleFile() {
        return Path.of(bundlePath).toAbsolutePath();
    }

    /**
     * {@code rego-bundle-path}: the Rego bundle built from the same sources as the Wasm one ({@code make bundle} writes
     * {@code rego-bundle.tar.gz} beside {@code bundle.tar.gz}), which the console's explain runs with
     * {@code opa eval --explain}. It is read when a revision is activated, and again while that revision serves until
     * one is found, verified with the same key and carrying that revision in its manifest. Default: the file
     * {@code rego-bundle.tar.gz} beside the bundle file.
     */
    public Path regoBundleFile() {
        return regoBundlePath == null || regoBundlePath.isBlank()
                ? bundleFile().resolveSibling("rego-bundle.tar.gz") : Path.of(regoBundlePath).toAbsolutePath();
    }

    public void setRegoBundlePath(String regoBundlePath) {
        this.regoBundlePath = regoBundlePath;
    }

    /**
     * {@code kept-revisions}: how many activated revisions the engine keeps, the serving one included, for replay and
     * the matrix diff (each kept as the verified bundle, about 1 MB, and one policy instance once it is used). Default
     * 5, at least 1.
     */
    public int getKeptRevisions() {
        return keptRevisions;
    }

    public void setKeptRevisions(int keptRevisions) {
        if (keptRevisions < 1) {
            throw new IllegalArgumentException(PREFIX + ".kept-revisions must be at least 1, not " + keptRevisions);
        }
        this.keptRevisions = keptRevisions;
    }

    /**
     * Policy instances in the pool, each serving one decision at a time. Empty (the default) means one per available
     * processor. Each instance costs ≈150–250 ms to build at start-up and a few MB of memory.
     */
    public Optional<Integer> getPoolSize() {
        return Optional.ofNullable(poolSize);
    }

    public void setPoolSize(Integer poolSize) {
        this.poolSize = poolSize;
    }

    /**
     * A decision's deadline: how long a call waits for a free instance before it is answered as unavailable (a
     * retryable fault, never a denial). Default 2 s.
     */
    public Duration getDecisionDeadline() {
        return decisionDeadline;
    }

    public void setDecisionDeadline(Duration decisionDeadline) {
        this.decisionDeadline = decisionDeadline;
    }

    /** The pool size this configuration gives on this machine. */
    public int poolSize() {
        return Math.max(1, getPoolSize().orElse(Runtime.getRuntime().availableProcessors()));
    }

    /**
     * The PEM file of the public key (RSA or ECDSA; for HMAC a file holding the shared secret) that bundle
     * signatures must verify with. Unset: no signed bundle verifies, and unsigned ones only with
     * {@link #isAllowUnsigned()}. {@code make run} sets it to {@code .gatehouse-data/bundle-signing/public.pem}.
     */
    public Optional<String> getVerificationKey() {
        return Optional.ofNullable(verificationKey).filter(path -> !path.isBlank());
    }

    public void setVerificationKey(String verificationKey) {
        this.verificationKey = verificationKey;
    }

    /** The id the key is known by; it overrides the signature's {@code kid}, as in OPA. Default {@code default}. */
    public String getVerificationKeyId() {
        return verificationKeyId;
    }

    public void setVerificationKeyId(String verificationKeyId) {
        this.verificationKeyId = verificationKeyId;
    }

    /** The JWS algorithm signatures must use. Default {@code RS256} (OPA's default). */
    public String getSigningAlg() {
        return signingAlg;
    }

    public void setSigningAlg(String signingAlg) {
        this.signingAlg = signingAlg;
    }

    /** The {@code scope} claim signatures must carry; empty (default) means none. */
    public String getScope() {
        return scope;
    }

    public void setScope(String scope) {
        this.scope = scope == null ? "" : scope;
    }

    /** Glob patterns of bundle file names not checked against the signature's file list. Default none. */
    public List<String> getExcludeFilesVerify() {
        return excludeFilesVerify;
    }

    public void setExcludeFilesVerify(List<String> excludeFilesVerify) {
        this.excludeFilesVerify = List.copyOf(excludeFilesVerify);
    }

    /** Development only: accept bundles without {@code .signatures.json}. Default false; logged as a warning. */
    public boolean isAllowUnsigned() {
        return allowUnsigned;
    }

    public void setAllowUnsigned(boolean allowUnsigned) {
        this.allowUnsigned = allowUnsigned;
    }

    /**
     * Development only: accept a signed bundle without {@code iat}, or signed earlier than the newest revision ever
     * accepted. Default false: such a bundle (a stale or replayed download, an older and weaker policy) is refused
     * and the serving revision keeps serving.
     */
    public boolean isAllowRollback() {
        return allowRollback;
    }

    public void setAllowRollback(boolean allowRollback) {
        this.allowRollback = allowRollback;
    }

    /**
     * How far in the future a bundle's {@code iat} may lie, for clocks that disagree. A later one is refused (it would
     * raise the rollback floor beyond every honest revision). Default 60 s.
     */
    public Duration getIatLeeway() {
        return iatLeeway;
    }

    public void setIatLeeway(Duration iatLeeway) {
        this.iatLeeway = iatLeeway;
    }

    /** How often the bundle file is checked for a change (size or modification time). Default 1 s. */
    public Duration getBundleWatchInterval() {
        return bundleWatchInterval;
    }

    public void setBundleWatchInterval(Duration bundleWatchInterval) {
        this.bundleWatchInterval = bundleWatchInterval;
    }

    /**
     * The verification these settings give.
     *
     * @throws UncheckedIOException when the key file is set but cannot be read
     */
    public BundleVerification verification() {
        Map<String, VerificationKey> keys = getVerificationKey().map(file -> {
            try {
                return Map.of(verificationKeyId, new VerificationKey(signingAlg, Files.readString(Path.of(file)), ""));
            } catch (IOException e) {
                throw new UncheckedIOException("gatehouse.policy.verification-key " + file + " cannot be read", e);
            }
        }).orElse(Map.of());
        return new BundleVerification(keys, keys.isEmpty() ? Optional.empty() : Optional.of(verificationKeyId),
                scope, excludeFilesVerify, allowUnsigned);
    }
}
