package dev.gatehouse.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Opaque session tokens: 256 random bits, base64url without padding (43 characters). The store keeps only
 * {@link #hash}; a token is shown once, in the admin API's answer.
 */
public final class SessionTokens {

    /** Random bytes per token: 32 bytes = 256 bits. */
    public static final int TOKEN_BYTES = 32;
    /** The characters of a minted token: base64url without padding, 4 for every 3 bytes, rounded up (43). */
    static final int TOKEN_CHARS = (TOKEN_BYTES * 4 + 2) / 3;

    private static final SecureRandom RANDOM = new SecureRandom();
    /** One digest per thread: every /mcp request hashes its token, and the provider lookup cost more than the hash. */
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    });

    private SessionTokens() {
    }

    /** A new token from {@link SecureRandom}. */
    public static String mint() {
        byte[] bytes = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Whether {@code token} has the shape {@link #mint} gives every token: {@value #TOKEN_CHARS} base64url
     * characters. A loop, not a regular expression: it runs on every call.
     */
    public static boolean hasMintedShape(String token) {
        if (token.length() != TOKEN_CHARS) {
            return false;
        }
        for (int i = 0; i < TOKEN_CHARS; i++) {
            char c = token.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /** A new random identifier (128 bits, base64url), for session ids that are not secrets. */
    public static String newId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Lower-case hex SHA-256 of the token's UTF-8 bytes: the only form in which tokens are stored. */
    public static String hash(String token) {
        // digest() resets the digest, so the next call on this thread starts clean.
        return HexFormat.of().formatHex(SHA256.get().digest(token.getBytes(StandardCharsets.UTF_8)));
    }
}
