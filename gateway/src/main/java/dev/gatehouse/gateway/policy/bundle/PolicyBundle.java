package dev.gatehouse.gateway.policy.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A bundle that passed verification ({@link BundleVerifier}), with its provenance.
 *
 * @param archive  the bundle's files
 * @param revision the manifest's {@code revision} ({@code opa build --revision}), never empty
 * @param keyId    the id of the key that verified it; empty only for an unsigned bundle that was allowed
 * @param signedAt the signature's {@code iat}, when it has one; orders revisions (an older one is a rollback)
 */
public record PolicyBundle(BundleArchive archive, String revision, Optional<String> keyId,
        Optional<Instant> signedAt) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public PolicyBundle {
        Objects.requireNonNull(archive, "archive");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(signedAt, "signedAt");
    }

    /**
     * Verifies the archive and reads its manifest.
     *
     * @throws BundleException when verification fails, or the bundle has no {@code .manifest} with a non-empty
     *                         {@code revision} (records must name the policy revision that decided)
     */
    public static PolicyBundle verify(BundleArchive archive, BundleVerification verification)
            throws BundleException {
        BundleVerifier.Signer signer = BundleVerifier.verify(archive, verification);
        byte[] manifest = archive.files().get(".manifest");
        if (manifest == null) {
            throw new BundleException("bundle has no .manifest (build it with opa build --revision)");
        }
        String revision;
        try {
            JsonNode json = JSON.readTree(manifest);
            revision = json == null ? "" : json.path("revision").asText("");
        } catch (IOException e) {
            throw new BundleException("bundle load failed on manifest decode: " + e.getMessage(), e);
        }
        if (revision.isEmpty()) {
            throw new BundleException("bundle manifest has no revision (build it with opa build --revision)");
        }
        return new PolicyBundle(archive, revision, signer.keyId(), signer.issuedAt().map(Instant::ofEpochSecond));
    }

    /** The file's content, if the bundle has it. */
    public Optional<byte[]> file(String name) {
        return Optional.ofNullable(archive.files().get(name));
    }
}
