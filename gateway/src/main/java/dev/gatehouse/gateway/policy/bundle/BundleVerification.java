package dev.gatehouse.gateway.policy.bundle;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How bundles are verified, in OPA's terms (bundle {@code signing} config and {@code keys}): the keys by id, the key
 * id to use whatever the signature names ({@code opa run --verification-key-id}, empty: the signature's {@code kid}
 * header, then its deprecated {@code keyid} claim), the scope (empty: the key's own), files exempt from the file
 * list ({@code exclude_files}, globs), and whether a bundle without {@code .signatures.json} may be used, which is
 * for development only.
 *
 * @param keys          verification keys by id; empty means no signed bundle can be verified
 * @param keyId         the key id to use, overriding the signature's
 * @param scope         the scope the signature must carry, {@code ""} to use the key's
 * @param excludeFiles  glob patterns of file names not checked against the signature
 * @param allowUnsigned true to accept bundles without {@code .signatures.json} (development only)
 */
public record BundleVerification(Map<String, VerificationKey> keys, Optional<String> keyId, String scope,
        List<String> excludeFiles, boolean allowUnsigned) {

    public BundleVerification {
        keys = Map.copyOf(keys);
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(scope, "scope");
        excludeFiles = List.copyOf(excludeFiles);
    }

    /** {@code opa run --verification-key <key> --verification-key-id <id> --scope <scope>} with RS256 etc. */
    public static BundleVerification withKey(String keyId, VerificationKey key, String scope) {
        return new BundleVerification(Map.of(keyId, key), Optional.of(keyId), scope, List.of(), false);
    }

    /** No keys; unsigned bundles accepted. For development and tests of unsigned bundles only. */
    public static BundleVerification unsignedAllowed() {
        return new BundleVerification(Map.of(), Optional.empty(), "", List.of(), true);
    }
}
