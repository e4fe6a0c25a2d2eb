package dev.gatehouse.gateway.credentials;

import java.util.Objects;

/**
 * A credential sealed with AES-256-GCM ({@link CredentialCipher}): what the shared store keeps.
 *
 * @param keyId      names the key that sealed it (first 8 bytes of the key's SHA-256, hex)
 * @param nonce      the 12-byte GCM nonce, random per seal
 * @param ciphertext the encrypted credential followed by the 16-byte tag
 */
public record Sealed(String keyId, byte[] nonce, byte[] ciphertext) {

    public Sealed {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(nonce, "nonce");
        Objects.requireNonNull(ciphertext, "ciphertext");
    }
}
