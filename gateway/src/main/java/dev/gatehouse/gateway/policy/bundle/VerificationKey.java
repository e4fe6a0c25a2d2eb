package dev.gatehouse.gateway.policy.bundle;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.cert.CertificateFactory;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One bundle verification key, as OPA's {@code keys.<id>} configures it: the algorithm the signature must use
 * ({@code RS256} by default, also RS384/512, PS256/384/512, ES256/384/512, HS256/384/512), the key (a PEM
 * {@code PUBLIC KEY} or {@code CERTIFICATE} for RSA and ECDSA, the shared secret itself for HMAC) and the scope
 * bundles signed with it must carry (empty: none).
 *
 * @param algorithm JWS algorithm name
 * @param key       the PEM text, or the HMAC secret
 * @param scope     required {@code scope} claim, {@code ""} for none
 */
public record VerificationKey(String algorithm, String key, String scope) {

    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN ([A-Z ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");

    public VerificationKey {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
    }

    /** The algorithm as Nimbus names it. */
    JWSAlgorithm jwsAlgorithm() {
        return JWSAlgorithm.parse(algorithm);
    }

    /**
     * A verifier for this key.
     *
     * @throws BundleException when the algorithm is unknown or the key is not a key of its family
     */
    JWSVerifier verifier() throws BundleException {
        JWSAlgorithm alg = jwsAlgorithm();
        try {
            if (JWSAlgorithm.Family.HMAC_SHA.contains(alg)) {
                return new MACVerifier(key.getBytes(StandardCharsets.UTF_8));
            }
            if (JWSAlgorithm.Family.RSA.contains(alg)) {
                return new RSASSAVerifier((RSAPublicKey) publicKey("RSA"));
            }
            if (JWSAlgorithm.Family.EC.contains(alg)) {
                return new ECDSAVerifier((ECPublicKey) publicKey("EC"));
            }
        } catch (JOSEException | ClassCastException e) {
            throw new BundleException("the verification key does not suit " + algorithm + ": " + e.getMessage(), e);
        }
        throw new BundleException("unknown signature algorithm " + algorithm);
    }

    private PublicKey publicKey(String family) throws BundleException {
        Matcher pem = PEM.matcher(key);
        if (!pem.find()) {
            throw new BundleException("the verification key for " + algorithm + " is not PEM");
        }
        byte[] der = Base64.getMimeDecoder().decode(pem.group(2));
        try {
            return switch (pem.group(1)) {
                case "PUBLIC KEY" -> KeyFactory.getInstance(family).generatePublic(new X509EncodedKeySpec(der));
                case "CERTIFICATE" -> CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(der)).getPublicKey();
                default -> throw new BundleException("unsupported PEM block type " + pem.group(1)
                        + " (use a PUBLIC KEY, e.g. openssl rsa -pubout)");
            };
        } catch (GeneralSecurityException e) {
            throw new BundleException("the verification key is not a " + family + " public key: " + e.getMessage(), e);
        }
    }
}
