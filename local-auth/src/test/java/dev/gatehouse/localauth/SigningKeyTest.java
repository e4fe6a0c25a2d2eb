package dev.gatehouse.localauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.KeyProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28: the local authorization server signs with a key of this installation, never one that ships in
 * mock-oauth2-server's library (with which anyone on the machine could mint a token for a running {@code make run}).
 * The key is generated on first start into the data directory, readable by its owner only, published at the issuer's
 * JWKS URL, and the same after a restart; a key file others may read is refused.
 */
class SigningKeyTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String AUDIENCE = "http://127.0.0.1:8080/mcp";

    @TempDir
    Path data;

    @Test
    void theJwksIsThisInstallationsOwnKeyOwnerOnlyAndKeptAcrossARestart() throws Exception {
        Path file = data.resolve("secrets/local-auth-signing-key.json");

        JWKSet first = run(file, port -> jwks(port));

        assertEquals(SigningKey.OWNER_ONLY, Files.getPosixFilePermissions(file));
        RSAKey published = (RSAKey) first.getKeyByKeyId(LocalAuthServer.ISSUER_ID);
        assertFalse(published.isPrivate(), "the JWKS holds the public key only");
        List<BigInteger> builtIn = KeyProvider.Companion.keysFromFile(KeyProvider.INITIAL_KEYS_FILE).stream()
                .filter(RSAKey.class::isInstance).map(key -> ((RSAKey) key).getModulus().decodeToBigInteger())
                .toList();
        assertFalse(builtIn.isEmpty(), "the library's own keys were read");
        assertFalse(builtIn.contains(published.getModulus().decodeToBigInteger()),
                "the published key is not one of the library's");

        String token = run(file, port -> {
            assertEquals(first.toJSONObject(), jwks(port).toJSONObject(), "the same key after a restart");
            return token(port);
        });
        assertTrue(SignedJWT.parse(token).verify(new RSASSAVerifier(published)),
                "a token minted after the restart verifies with the key published before it");
    }

    @Test
    void aKeyFileOthersMayReadIsRefusedAndAnotherKeyIsNeverMadeOverIt() throws Exception {
        Path file = data.resolve("signing-key.json");
        RSAKey made = SigningKey.loadOrCreate(file);
        assertEquals(made, SigningKey.loadOrCreate(file), "read again, not made again");

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThrows(IllegalStateException.class, () -> SigningKey.loadOrCreate(file));
        assertEquals(made, RSAKey.parse(Files.readString(file)), "the file is left as it was");
    }

    @Test
    void aFileThatHoldsNoPrivateKeyIsRefused() throws Exception {
        Path file = data.resolve("public-only.json");
        JWK publicOnly = SigningKey.loadOrCreate(data.resolve("made.json")).toPublicJWK();
        Files.writeString(file, publicOnly.toJSONString());
        Files.setPosixFilePermissions(file, SigningKey.OWNER_ONLY);

        assertThrows(IllegalStateException.class, () -> SigningKey.loadOrCreate(file));
    }

    private interface WhileRunning<T> {
        T at(int port) throws Exception;
    }

    /** Starts the server on a free port with the key in {@code file}, does {@code body}, and stops it. */
    private static <T> T run(Path file, WhileRunning<T> body) throws Exception {
        int port = freePort();
        MockOAuth2Server server = LocalAuthServer.start(port, AUDIENCE, Map.of("o1", "read-only"), "mcp", 60,
                SigningKey.loadOrCreate(file), List.of("operator"));
        try {
            return body.at(port);
        } finally {
            server.shutdown();
        }
    }

    private static JWKSet jwks(int port) throws Exception {
        return JWKSet.parse(get(URI.create("http://127.0.0.1:" + port + "/" + LocalAuthServer.ISSUER_ID + "/jwks")));
    }

    private static String token(int port) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"
                + LocalAuthServer.ISSUER_ID + "/token")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=o1"
                        + "&client_secret=any&scope=mcp")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        return (String) com.nimbusds.jose.util.JSONObjectUtils.parse(answer.body()).get("access_token");
    }

    private static String get(URI uri) throws Exception {
        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        return answer.body();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
