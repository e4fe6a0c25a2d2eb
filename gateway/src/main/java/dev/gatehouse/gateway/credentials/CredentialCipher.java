package dev.gatehouse.gateway.credentials;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens service credentials with AES-256-GCM (the JDK's provider): a random 96-bit nonce per seal, a
 * 128-bit tag, and the service name as associated data, so a ciphertext copied to another service's row does not
 * open. The key is the operator's ({@link CredentialProperties}); it never leaves this process.
 */
public final class CredentialCipher {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKey key;
    private final String keyId;

    /** @param key exactly 32 bytes */
    public CredentialCipher(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("the credential key must be 32 bytes (AES-256), got " + key.length);
        }
        this.key = new SecretKeySpec(key.clone(), "AES");
        this.keyId = keyId(key);
    }

    /** The id sealed credentials carry: the first 8 bytes of the key's SHA-256, in hex. */
    public String keyId() {
        return keyId;
    }

    /** Seals {@code credential} for {@code service}. */
    public Sealed seal(String service, String credential) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(service.getBytes(StandardCharsets.UTF_8));
            return new Sealed(keyId, nonce, cipher.doFinal(credential.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is required by every Java platform", e);
        }
    }

    /**
     * The credential {@code sealed} holds for {@code service}; empty when it was sealed under another key, for
     * another service, or altered.
     */
    public Optional<String> open(String service, Sealed sealed) {
        if (!sealed.keyId().equals(keyId) || sealed.nonce().length != NONCE_BYTES) {
            return Optional.empty();
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed.nonce()));
            cipher.updateAAD(service.getBytes(StandardCharsets.UTF_8));
            byte[] plain = cipher.doFinal(sealed.ciphertext());
            String credential = new String(plain, StandardCharsets.UTF_8);
            Arrays.fill(plain, (byte) 0);
            return Optional.of(credential);
        } catch (GeneralSecurityException e) {
            return Optional.empty();
        }
    }

    private static String keyId(byte[] key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
