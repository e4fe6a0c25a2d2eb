package dev.gatehouse.gateway.credentials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.store.Database;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Service credentials through the admin API: entered write-only, sealed in PostgreSQL under the key file, used by the
 * facades' credential source from the next call on, removed back to the configured one; audited without the value.
 */
@MicronautTest(transactional = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceCredentialsTest implements TestPropertyProvider {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SECRET = "rotated-" + Base64.getUrlEncoder().encodeToString(new byte[] {1, 2, 3, 4});

    @Inject
    EmbeddedServer server;
    @Inject
    ServiceCredentials credentials;
    @Inject
    Database database;

    @Override
    public Map<String, String> getProperties() {
        try {
            Path key = Files.createTempFile("gatehouse-credential-key", ".b64");
            key.toFile().deleteOnExit();
            byte[] bytes = new byte[32];
            new SecureRandom().nextBytes(bytes);
            Files.writeString(key, Base64.getEncoder().encodeToString(bytes));
            return Map.of("micronaut.server.port", "-1",
                    "gatehouse.policy.bundle-path", "../target/bundle/bundle.tar.gz",
                    "gatehouse.admin.credential", "admin-test-credential",
                    "gatehouse.audit.path", "target/test-decisions/credentials.jsonl",
                    "gatehouse.services.wiki.url", "http://127.0.0.1:9",
                    "gatehouse.services.wiki.credential", "configured-credential",
                    "gatehouse.credentials.key-file", key.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpResponse<String> admin(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer admin-test-credential").build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aReplacedCredentialIsUsedFromTheNextCallAndNeverShown() throws Exception {
        assertEquals(Optional.empty(), credentials.credential("wiki"), "none stored: the configured one is sent");
        for (String bad : List.of("{}", "{\"credential\":\" \"}", "{\"credential\":\"two words\"}",
                "{\"credential\":\"a\\u0007b\"}",
                // not visible ASCII, so never a bearer token (a new user's trial found "pässwörd" stored)
                "{\"credential\":\"p\u00e4ssw\u00f6rd\"}", "{\"credential\":\"a\\u00a0b\"}",
                "{\"credential\":\"k\\u007f\"}", "{\"credential\":\"\\ud83d\\ude00\"}",
                "{\"credential\":\"\uff4b\uff45\uff59\"}")) {
            assertEquals(400, admin("PUT", "/admin/service-clients/wiki/credential", bad).statusCode(), bad);
        }
        assertEquals(404, admin("PUT", "/admin/service-clients/mail/credential", "{\"credential\":\"x\"}")
                .statusCode());

        HttpResponse<String> replaced = admin("PUT", "/admin/service-clients/wiki/credential",
                "{\"credential\":\"" + SECRET + "\"}");
        assertEquals(200, replaced.statusCode(), replaced.body());
        assertFalse(replaced.body().contains(SECRET));
        assertEquals(Optional.of(SECRET), credentials.credential("wiki"), "the next call sends it");
        JsonNode wiki = JSON.readTree(admin("GET", "/admin/service-clients", null).body()).get(1);
        assertEquals("wiki", wiki.path("service").asText());
        assertEquals("stored", wiki.path("credentialSource").asText());
        assertEquals(1, wiki.path("storedVersion").asLong());
        byte[] stored = database.one("SELECT ciphertext FROM service_credential WHERE service = 'wiki'", s -> {
        }, row -> row.getBytes(1)).orElseThrow();
        assertFalse(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1).contains(SECRET), "sealed");

        String audit = admin("GET", "/admin/audit?subject=admin-credential", null).body();
        assertTrue(audit.contains("service.credential.replace"), audit);
        assertFalse(audit.contains(SECRET), "never a secret in the audit");

        assertEquals(200, admin("DELETE", "/admin/service-clients/wiki/credential", null).statusCode());
        assertEquals(Optional.empty(), credentials.credential("wiki"), "back to the configured one");
        assertEquals(404, admin("DELETE", "/admin/service-clients/wiki/credential", null).statusCode());
        assertEquals("value", JSON.readTree(admin("GET", "/admin/service-clients", null).body()).get(1)
                .path("credentialSource").asText());
    }

    @Test
    void aSealThatDoesNotOpenIsReportedAndNotUsed() throws Exception {
        database.update("INSERT INTO service_credential (service, key_id, nonce, ciphertext, version, updated_at)"
                + " VALUES ('host', 'another-key', '\\x000102030405060708090a0b', '\\x00', 1, now())"
                + " ON CONFLICT (service) DO NOTHING", s -> {
                });
        // The row was written behind the store's back: awaited by its effect (the change notification drops the
        // cached absence), never by time.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (credentials.state("host") != ServiceCredentials.Source.UNREADABLE) {
            assertTrue(System.nanoTime() < deadline, "the stored row is seen within the cache bound");
            Thread.sleep(10);
        }
        assertEquals(Optional.empty(), credentials.credential("host"), "not used");
        JsonNode health = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.getPort() + "/health")).build(), HttpResponse.BodyHandlers.ofString()).body());
        assertEquals("unreadable", health.path("services").path("host").path("credentialSource").asText(),
                health.toString());
    }
}
