package dev.gatehouse.gateway.credentials;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** AES-256-GCM sealing of service credentials: only the same key and the same service open a seal, unaltered. */
class CredentialCipherTest {

    private static byte[] key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }

    @Test
    void aSealOpensWithItsKeyForItsServiceOnly() {
        CredentialCipher cipher = new CredentialCipher(key(1));
        Sealed sealed = cipher.seal("wiki", "s3cret-token");
        assertFalse(new String(sealed.ciphertext(), StandardCharsets.UTF_8).contains("s3cret"));
        assertEquals(Optional.of("s3cret-token"), cipher.open("wiki", sealed));
        assertEquals(Optional.empty(), cipher.open("project", sealed), "moved to another service's row");
        assertEquals(Optional.empty(), new CredentialCipher(key(2)).open("wiki", sealed), "another key");
        Sealed forged = new Sealed(new CredentialCipher(key(2)).keyId(), sealed.nonce(), sealed.ciphertext());
        assertEquals(Optional.empty(), new CredentialCipher(key(2)).open("wiki", forged), "another key, same id");
    }

    @Test
    void everyAlteredByteIsRefused() {
        CredentialCipher cipher = new CredentialCipher(key(3));
        Sealed sealed = cipher.seal("host", "token");
        for (int i = 0; i < sealed.ciphertext().length; i++) {
            byte[] altered = sealed.ciphertext().clone();
            altered[i] ^= 1;
            assertEquals(Optional.empty(), cipher.open("host", new Sealed(sealed.keyId(), sealed.nonce(), altered)),
                    "byte " + i);
        }
        for (int i = 0; i < sealed.nonce().length; i++) {
            byte[] nonce = sealed.nonce().clone();
            nonce[i] ^= 1;
            assertEquals(Optional.empty(), cipher.open("host", new Sealed(sealed.keyId(), nonce,
                    sealed.ciphertext())), "nonce byte " + i);
        }
    }

    @Test
    void eachSealHasItsOwnNonceAndTheKeyIdNamesTheKey() {
        CredentialCipher cipher = new CredentialCipher(key(4));
        Sealed a = cipher.seal("wiki", "same");
        Sealed b = cipher.seal("wiki", "same");
        assertFalse(Arrays.equals(a.nonce(), b.nonce()));
        assertNotEquals(Arrays.toString(a.ciphertext()), Arrays.toString(b.ciphertext()));
        assertEquals(cipher.keyId(), new CredentialCipher(key(4)).keyId());
        assertNotEquals(cipher.keyId(), new CredentialCipher(key(5)).keyId());
        assertTrue(cipher.keyId().matches("[0-9a-f]{16}"));
        assertArrayEquals(a.nonce(), a.nonce().clone());
        assertThrows(IllegalArgumentException.class, () -> new CredentialCipher(new byte[16]));
    }
}
