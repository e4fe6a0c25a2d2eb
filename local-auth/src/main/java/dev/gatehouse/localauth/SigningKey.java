package dev.gatehouse.localauth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.util.Set;

/**
 * The key pair the local authorization server signs tokens with: an RSA key (2,048 bits, RS256) generated on first
 * start into a file of the data directory, readable by its owner only (mode 600), and read from it on every later
 * start, so tokens stay valid across restarts and the JWKS the gateway fetches does not change. mock-oauth2-server's
 * own keys ship inside its library, so anyone could sign with them; this key exists only on this machine, in this
 * file. The file holds the private key as one JWK (RFC 7517); a file that others may read or write is refused rather
 * than used.
 */
final class SigningKey {

    /** Owner read and write only. */
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final int BITS = 2048;

    private SigningKey() {
    }

    /**
     * The key in {@code file}, generated and written there first when the file does not exist.
     *
     * @throws IllegalStateException when the file cannot be read as a private RSA JWK, or others may read or write it
     */
    static RSAKey loadOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                create(file);
            }
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            if (!OWNER_ONLY.containsAll(permissions)) {
                throw new IllegalStateException(file + " may be read or written by others ("
                        + PosixFilePermissions.toString(permissions) + "); it holds the token signing key: "
                        + "chmod 600 it, or remove it to have a new key made");
            }
            RSAKey key = RSAKey.parse(Files.readString(file, StandardCharsets.UTF_8));
            if (!key.isPrivate()) {
                throw new IllegalStateException(file + " holds no private key");
            }
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the signing key file " + file, e);
        } catch (ParseException e) {
            throw new IllegalStateException(file + " is not an RSA JWK", e);
        }
    }

    /**
     * Writes a new key: into a temporary file created with mode 600 (never readable by others, even for a moment),
     * then moved into place without replacing one another start wrote meanwhile.
     */
    private static void create(Path file) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        Files.createDirectories(folder);
        String jwk;
        try {
            jwk = new RSAKeyGenerator(BITS).keyIDFromThumbprint(true).generate().toJSONString();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot generate an RSA key", e);
        }
        Path temporary = Files.createTempFile(folder, ".signing-key", ".tmp",
                PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
            Files.writeString(temporary, jwk, StandardCharsets.UTF_8);
            Files.move(temporary, file);
        } catch (FileAlreadyExistsException made) {
            // Another start made one first: that one is used.
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
