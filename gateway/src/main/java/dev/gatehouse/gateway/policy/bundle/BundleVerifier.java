package dev.gatehouse.gateway.policy.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSObject;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.MessageDigest;
import java.text.ParseException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Verifies a bundle exactly as OPA's bundle reader does (OPA bundle signing and verification), with Nimbus JOSE for
 * the JWT:
 * <ol>
 *   <li>a file whose name ends in {@code signatures.json} holds {@code {"signatures": [jwt]}}; without one the
 *       bundle is refused unless unsigned bundles are allowed; with one it must hold exactly one JWT;</li>
 *   <li>the key id is the configured one, else the JWT's {@code kid} header, else its deprecated {@code keyid}
 *       claim; no id, or an id without a configured key, refuses;</li>
 *   <li>the JWT's {@code alg} must be the key's algorithm and its signature must verify with the key;</li>
 *   <li>its {@code scope} claim must equal the configured scope (else the key's scope), absent counting as
 *       {@code ""};</li>
 *   <li>every other file, unless an exclude glob matches its name, must be listed in the claim {@code files} with an
 *       algorithm and the hex digest {@link FileDigest} computes; a file not listed, a wrong digest, and a listed
 *       file the bundle lacks each refuse the bundle.</li>
 * </ol>
 */
public final class BundleVerifier {

    private static final ObjectMapper JSON = new ObjectMapper();

    private BundleVerifier() {
    }

    /**
     * What a verification established.
     *
     * @param keyId    the id of the key that verified the signature; empty for an allowed unsigned bundle
     * @param issuedAt the signature's {@code iat} claim in seconds since the epoch, when it has one
     */
    public record Signer(Optional<String> keyId, Optional<Long> issuedAt) {
    }

    /**
     * @return the signer of a verified bundle, or an empty signer for an unsigned one that is allowed
     * @throws BundleException naming the first rule the bundle breaks
     */
    public static Signer verify(BundleArchive archive, BundleVerification verification) throws BundleException {
        Optional<Map.Entry<String, byte[]>> signatures = archive.files().entrySet().stream()
                .filter(file -> isSignatures(file.getKey())).reduce((first, second) -> second);
        if (signatures.isEmpty()) {
            if (verification.allowUnsigned()) {
                return new Signer(Optional.empty(), Optional.empty());
            }
            throw new BundleException("bundle missing .signatures.json file (unsigned bundles are refused)");
        }
        if (verification.keys().isEmpty()) {
            throw new BundleException("verification key not provided for a signed bundle");
        }
        String token = onlyToken(signatures.get().getValue());
        JWSObject jws;
        try {
            jws = JWSObject.parse(token);
        } catch (ParseException e) {
            throw new BundleException(".signatures.json: the JWT cannot be parsed: " + e.getMessage(), e);
        }
        JsonNode payload = payload(jws);
        String keyId = verification.keyId()
                .or(() -> Optional.ofNullable(jws.getHeader().getKeyID()).filter(id -> !id.isEmpty()))
                .or(() -> Optional.of(payload.path("keyid").asText("")).filter(id -> !id.isEmpty()))
                .orElseThrow(() -> new BundleException("verification key ID is empty"));
        VerificationKey key = verification.keys().get(keyId);
        if (key == null) {
            throw new BundleException("verification key corresponding to ID " + keyId + " not found");
        }
        if (!jws.getHeader().getAlgorithm().equals(key.jwsAlgorithm())) {
            throw new BundleException("the signature uses " + jws.getHeader().getAlgorithm() + ", key " + keyId
                    + " is for " + key.algorithm());
        }
        try {
            if (!jws.verify(key.verifier())) {
                throw new BundleException("the bundle signature does not verify with key " + keyId);
            }
        } catch (JOSEException e) {
            throw new BundleException("the bundle signature cannot be verified with key " + keyId + ": "
                    + e.getMessage(), e);
        }
        String scope = verification.scope().isEmpty() ? key.scope() : verification.scope();
        if (!payload.path("scope").asText("").equals(scope)) {
            throw new BundleException("scope mismatch");
        }
        checkFiles(archive, listed(payload), verification.excludeFiles());
        JsonNode iat = payload.path("iat");
        return new Signer(Optional.of(keyId), iat.canConvertToLong() && iat.asLong() > 0
                ? Optional.of(iat.asLong()) : Optional.empty());
    }

    private static boolean isSignatures(String name) {
        return name.endsWith("signatures.json");
    }

    private static String onlyToken(byte[] signaturesFile) throws BundleException {
        JsonNode tokens;
        try {
            tokens = JSON.readTree(signaturesFile).path("signatures");
        } catch (IOException e) {
            throw new BundleException("bundle load failed on signatures decode: " + e.getMessage(), e);
        }
        if (!tokens.isArray() || tokens.isEmpty()) {
            throw new BundleException(".signatures.json: missing JWT (expected exactly one)");
        }
        if (tokens.size() > 1) {
            throw new BundleException(".signatures.json: multiple JWTs not supported (expected exactly one)");
        }
        if (!tokens.get(0).isTextual()) {
            throw new BundleException(".signatures.json: the signature is not a string");
        }
        return tokens.get(0).textValue();
    }

    private static JsonNode payload(JWSObject jws) throws BundleException {
        try {
            JsonNode payload = JSON.readTree(jws.getPayload().toBytes());
            if (payload == null || !payload.isObject()) {
                throw new BundleException(".signatures.json: the JWT payload is not an object");
            }
            return payload;
        } catch (IOException e) {
            throw new BundleException(".signatures.json: the JWT payload is not JSON", e);
        }
    }

    /** The claim {@code files}: name → {hash, algorithm}. */
    private static Map<String, JsonNode> listed(JsonNode payload) throws BundleException {
        Map<String, JsonNode> files = new LinkedHashMap<>();
        JsonNode list = payload.path("files");
        if (!list.isMissingNode() && !list.isNull() && !list.isArray()) {
            throw new BundleException(".signatures.json: files is not a list");
        }
        for (JsonNode file : list) {
            files.put(file.path("name").asText(""), file);
        }
        return files;
    }

    private static void checkFiles(BundleArchive archive, Map<String, JsonNode> listed, List<String> excludes)
            throws BundleException {
        List<PathMatcher> excluded = excludes.stream()
                .map(glob -> FileSystems.getDefault().getPathMatcher("glob:" + glob)).toList();
        for (Map.Entry<String, byte[]> file : archive.files().entrySet()) {
            String name = file.getKey();
            if (isSignatures(name)) {
                continue;
            }
            if (excluded.stream().anyMatch(matcher -> matcher.matches(Path.of(name)))) {
                listed.remove(name);
                continue;
            }
            JsonNode info = listed.remove(name);
            if (info == null) {
                throw new BundleException("file " + name + " not included in bundle signature");
            }
            String algorithm = info.path("algorithm").asText("");
            if (algorithm.isEmpty()) {
                throw new BundleException("no hashing algorithm provided for file " + name);
            }
            byte[] want;
            try {
                want = HexFormat.of().parseHex(info.path("hash").asText(""));
            } catch (IllegalArgumentException e) {
                throw new BundleException(name + ": the signed digest is not hex", e);
            }
            byte[] got = FileDigest.digest(name, file.getValue(), algorithm);
            if (!MessageDigest.isEqual(want, got)) {
                throw new BundleException(name + ": digest mismatch (want: " + HexFormat.of().formatHex(want)
                        + ", got: " + HexFormat.of().formatHex(got) + ")");
            }
        }
        if (!listed.isEmpty()) {
            throw new BundleException("file(s) " + listed.keySet()
                    + " specified in bundle signatures but not found in the target bundle");
        }
    }
}
