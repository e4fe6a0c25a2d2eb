package dev.gatehouse.gateway.policy.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import dev.gatehouse.facts.PolicyJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verification rules of {@link BundleVerifier} beyond the parity table, each on a small bundle whose
 * {@code .signatures.json} is written here with Nimbus (the table covers bundles signed by {@code opa build}).
 */
class BundleVerifierTest {

    @TempDir
    static Path dir;

    private static SignedBundles.Keys keys;
    private static RSAPrivateKey privateKey;

    private static final byte[] MANIFEST = "{\"revision\":\"r1\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] POLICY = "package x\n".getBytes(StandardCharsets.UTF_8);

    @BeforeAll
    static void makeKeys() throws Exception {
        keys = SignedBundles.keys(dir.resolve("keys"));
        String pem = Files.readString(keys.privateKey()).replaceAll("-----[A-Z ]+-----|\\s", "");
        privateKey = (RSAPrivateKey) KeyFactory.getInstance("RSA")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
    }

    @Test
    void aWellSignedBundleVerifiesAndNamesItsKeyAndSigningTime() throws Exception {
        BundleVerifier.Signer signer = BundleVerifier.verify(bundle(rs256(header("default"), claims(1234))),
                keys.verification(""));
        assertEquals(Optional.of("default"), signer.keyId());
        assertEquals(Optional.of(1234L), signer.issuedAt());
    }

    @Test
    void theKeyIdComesFromTheKidHeaderThenTheKeyidClaimWhenNoneIsConfigured() throws Exception {
        BundleVerification byHeaderOrClaim = new BundleVerification(Map.of("k1", key()), Optional.empty(), "",
                List.of(), false);
        assertEquals(Optional.of("k1"), BundleVerifier.verify(bundle(rs256(header("k1"), claims(1))),
                byHeaderOrClaim).keyId());
        ObjectNode withClaim = claims(1).put("keyid", "k1");
        assertEquals(Optional.of("k1"), BundleVerifier.verify(bundle(rs256(header(null), withClaim)),
                byHeaderOrClaim).keyId());
        refused(bundle(rs256(header(null), claims(1))), byHeaderOrClaim, "verification key ID is empty");
        refused(bundle(rs256(header("k2"), claims(1))), byHeaderOrClaim, "ID k2 not found");
    }

    @Test
    void theConfiguredKeyIdOverridesTheKidHeaderAsInOpa() throws Exception {
        assertEquals(Optional.of("default"), BundleVerifier.verify(bundle(rs256(header("elsewhere"), claims(1))),
                keys.verification("")).keyId());
    }

    @Test
    void exactlyOneSignatureIsAccepted() throws Exception {
        String token = rs256(header("default"), claims(1));
        refused(bundleWithSignatures(List.of(token, token)), keys.verification(""), "multiple JWTs not supported");
        refused(bundleWithSignatures(List.of()), keys.verification(""), "missing JWT");
    }

    @Test
    void aSignatureWithAnotherAlgorithmThanTheKeysIsRefused() throws Exception {
        JWSObject hmac = new JWSObject(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("default").build(),
                new Payload(PolicyJson.write(claims(1))));
        hmac.sign(new MACSigner(new byte[32]));
        refused(bundle(hmac.serialize()), keys.verification(""), "uses HS256");
    }

    @Test
    void aFileWithoutAnAlgorithmOrWithAnUnknownOneIsRefused() throws Exception {
        ObjectNode noAlgorithm = claims(1);
        ((ObjectNode) noAlgorithm.withArray("files").get(0)).remove("algorithm");
        refused(bundle(rs256(header("default"), noAlgorithm)), keys.verification(""), "no hashing algorithm");
        ObjectNode unknown = claims(1);
        ((ObjectNode) unknown.withArray("files").get(0)).put("algorithm", "SHA-3");
        refused(bundle(rs256(header("default"), unknown)), keys.verification(""), "unsupported hashing algorithm");
    }

    @Test
    void anExcludedFileNeedNotBeListed() throws Exception {
        Map<String, byte[]> files = files(rs256(header("default"), claims(1)));
        files.put("notes/readme.txt", "unsigned".getBytes(StandardCharsets.UTF_8));
        BundleArchive archive = new BundleArchive(files, "x");
        refused(archive, keys.verification(""), "not included in bundle signature");
        BundleVerification excluding = new BundleVerification(Map.of("default", key()), Optional.of("default"), "",
                List.of("notes/*"), false);
        assertEquals(Optional.of("default"), BundleVerifier.verify(archive, excluding).keyId());
    }

    @Test
    void theScopeMustMatchTheConfiguredOneOrElseTheKeys() throws Exception {
        String scoped = rs256(header("default"), claims(1).put("scope", "read"));
        assertEquals(Optional.of("default"), BundleVerifier.verify(bundle(scoped), keys.verification("read"))
                .keyId());
        refused(bundle(scoped), keys.verification(""), "scope mismatch");
        BundleVerification keyScope = new BundleVerification(Map.of("default",
                new VerificationKey("RS256", Files.readString(keys.publicKey()), "read")), Optional.of("default"),
                "", List.of(), false);
        assertEquals(Optional.of("default"), BundleVerifier.verify(bundle(scoped), keyScope).keyId());
    }

    @Test
    void unsignedBundlesAreAcceptedOnlyWhenAllowedAndSignedOnesNeedAKey() throws Exception {
        BundleArchive unsigned = new BundleArchive(Map.of(".manifest", MANIFEST), "x");
        refused(unsigned, keys.verification(""), "missing .signatures.json");
        assertEquals(Optional.empty(), BundleVerifier.verify(unsigned, BundleVerification.unsignedAllowed()).keyId());
        refused(bundle(rs256(header("default"), claims(1))), BundleVerification.unsignedAllowed(),
                "verification key not provided");
    }

    @Test
    void jsonFilesAreDigestedInOpasCanonicalFormAndOthersAsBytes() throws Exception {
        byte[] spaced = "{ \"b\" : [1.0, 1e5], \"a\" : \"\\u00e9\\u2028<&>\\u0001\" }".getBytes(StandardCharsets.UTF_8);
        String canonical = "{\"a\":\"é\\u2028<&>\\u0001\",\"b\":[1.0,1e5]}";
        assertEquals(hex(sha256(canonical.getBytes(StandardCharsets.UTF_8))),
                hex(FileDigest.digest("data.json", spaced, "SHA-256")));
        assertEquals(hex(sha256(canonical.getBytes(StandardCharsets.UTF_8))),
                hex(FileDigest.digest("x/y/data.json", spaced, "SHA-256")));
        assertEquals(hex(sha256(spaced)), hex(FileDigest.digest("notes.json", spaced, "SHA-256")));
        assertThrows(BundleException.class, () -> FileDigest.digest("data.yaml", spaced, "SHA-256"));
    }

    private static void refused(BundleArchive archive, BundleVerification verification, String why) {
        BundleException e = assertThrows(BundleException.class, () -> BundleVerifier.verify(archive, verification));
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

    private static VerificationKey key() throws Exception {
        return new VerificationKey("RS256", Files.readString(keys.publicKey()), "");
    }

    private static JWSHeader header(String kid) {
        return new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid).build();
    }

    private static String rs256(JWSHeader header, ObjectNode claims) throws Exception {
        JWSObject jws = new JWSObject(header, new Payload(PolicyJson.write(claims)));
        jws.sign(new RSASSASigner(privateKey));
        return jws.serialize();
    }

    /** Claims listing {@code .manifest} and {@code x.rego} with their digests. */
    private static ObjectNode claims(long iat) throws Exception {
        ObjectNode claims = PolicyJson.MAPPER.createObjectNode();
        ArrayNode files = claims.putArray("files");
        files.addObject().put("name", ".manifest").put("algorithm", "SHA-256")
                .put("hash", hex(FileDigest.digest(".manifest", MANIFEST, "SHA-256")));
        files.addObject().put("name", "x.rego").put("algorithm", "SHA-256").put("hash", hex(sha256(POLICY)));
        claims.put("iat", iat);
        return claims;
    }

    private static BundleArchive bundle(String token) throws Exception {
        return new BundleArchive(files(token), "x");
    }

    private static BundleArchive bundleWithSignatures(List<String> tokens) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        ObjectNode signatures = PolicyJson.MAPPER.createObjectNode();
        tokens.forEach(signatures.putArray("signatures")::add);
        files.put(".signatures.json", PolicyJson.write(signatures).getBytes(StandardCharsets.UTF_8));
        files.put(".manifest", MANIFEST);
        files.put("x.rego", POLICY);
        return new BundleArchive(files, "x");
    }

    private static Map<String, byte[]> files(String token) {
        return new LinkedHashMap<>(bundleWithSignatures(List.of(token)).files());
    }

    private static byte[] sha256(byte[] bytes) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
