package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Admin request bodies are read strictly (one reader, {@link AdminBodies}): every member misspelled and every member
 * with a wrong type is refused with 400 {@code invalid_fields} naming it and nothing is written; a body that is not
 * JSON or is {@code null} gets the same structured 400; a missing thing is 404 {@code not_found}.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "bodies-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/bodies.jsonl")
@Property(name = "gatehouse.public-url", value = "https://gatehouse.example")
@Property(name = "gatehouse.oauth.issuer", value = "https://issuer.example")
class AdminBodiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Each settings member (dotted path) with a valid value and values of every wrong JSON type. */
    private static final Map<String, List<String>> SETTINGS_WRONG = Map.of(
            "browserAccess", List.of("\"yes\"", "\"true\"", "1", "{}", "[]"),
            "project.enabled", List.of("\"yes\"", "0", "[]"),
            "project.projectServiceProjectId", List.of("5", "true", "{}", "[]"),
            "wiki.read", List.of("\"yes\"", "1", "{}"),
            "wiki.write", List.of("\"no\"", "0", "[]"),
            "version", List.of("\"3\"", "true", "{}", "1.5", "99999999999999999999", "-99999999999999999999",
                    "1e400"));

    @Inject
    EmbeddedServer server;

    private HttpResponse<String> admin(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer bodies-test-credential").build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code {"a":{"b":value}}} for path {@code a.b}. */
    private static String body(String path, String value) {
        String[] parts = path.split("\\.");
        String out = value;
        for (int i = parts.length - 1; i >= 0; i--) {
            out = "{\"" + parts[i] + "\":" + out + "}";
        }
        return out;
    }

    private static String misspelled(String path) {
        int dot = path.lastIndexOf('.');
        String last = path.substring(dot + 1);
        return path.substring(0, dot + 1) + last.substring(0, last.length() - 2) + last.charAt(last.length() - 1);
    }

    private static void assertInvalid(HttpResponse<String> response, String field, String sent) throws Exception {
        assertEquals(400, response.statusCode(), sent + " " + response.body());
        JsonNode body = JSON.readTree(response.body());
        if (field.equals("version")) {
            // A lone version problem keeps the API's own invalid_version answer (AdminResponses).
            assertEquals("invalid_version", body.path("error").asText(), sent);
            assertEquals("[\"version\"]", body.path("invalid").toString(), sent);
            return;
        }
        assertEquals("invalid_fields", body.path("error").asText(), sent);
        assertEquals(field, body.path("invalid").path(0).asText(), sent + " " + response.body());
    }

    @Test
    void everySettingsMemberMisspelledOrOfAWrongTypeIsRefusedAndNothingIsWritten() throws Exception {
        List<String> sent = new ArrayList<>();
        for (Map.Entry<String, List<String>> member : SETTINGS_WRONG.entrySet()) {
            String wrongName = misspelled(member.getKey());
            String misspelledBody = body(wrongName, "true");
            assertInvalid(admin("PUT", "/admin/agents/strict-1", misspelledBody), wrongName, misspelledBody);
            sent.add(misspelledBody);
            for (String wrong : member.getValue()) {
                String typed = body(member.getKey(), wrong);
                assertInvalid(admin("PUT", "/admin/agents/strict-1", typed), member.getKey(), typed);
                sent.add(typed);
            }
        }
        assertInvalid(admin("PUT", "/admin/agents/strict-1", "{\"x\":1}"), "x", "{x:1}");
        assertEquals(404, admin("GET", "/admin/agents/strict-1", null).statusCode(), "nothing was written: " + sent);
        assertEquals(200, admin("PUT", "/admin/agents/strict-1", "{}").statusCode(), "absent flags are false");
    }

    @Test
    void everyAdminBodyRefusesUnknownMembersBrokenJsonAndNull() throws Exception {
        Map<String, String[]> writes = Map.of(
                "/admin/sessions", new String[] {"POST", "threadId"},
                "/admin/outside-agents", new String[] {"PUT", "issuer"},
                "/admin/notices/agents/strict-2", new String[] {"PUT", "projectClientId"},
                "/admin/service-clients/wiki/credential", new String[] {"PUT", "credential"},
                "/admin/agents/strict-2", new String[] {"PUT", "browserAccess"});
        for (Map.Entry<String, String[]> write : writes.entrySet()) {
            String method = write.getValue()[0];
            String path = write.getKey();
            assertInvalid(admin(method, path, "{\"unknownMember\":\"x\"}"), "unknownMember", path);
            assertInvalid(admin(method, path, body(write.getValue()[1], "[1]")), write.getValue()[1], path);
            for (String broken : List.of("{bad", "null", "[]", "\"text\"", "{}}", "")) {
                HttpResponse<String> response = admin(method, path, broken);
                assertInvalid(response, "body", path + " " + broken);
                assertFalse(response.body().contains("Error decoding") || response.body().contains("Required Body"),
                        response.body());
            }
        }
    }

    /**
     * A body that is JSON but past a limit of the reader (nested deeper than 1,000 levels, a number of more than 1,000
     * digits) is refused on {@code body} with the limit it passed, not as "Not valid JSON" (a new user's trial): deep
     * objects at the top, under an object member and deep arrays under an unknown one; long numbers for a boolean and
     * a string member. (Deep arrays where a boolean goes are refused as the wrong type, before the depth is reached.)
     */
    @Test
    void aBodyPastAReadingLimitIsRefusedNamingTheLimit() throws Exception {
        String deepArrays = "[".repeat(1001) + "]".repeat(1001);
        String deepObjects = "{\"a\":".repeat(1001) + "1" + "}".repeat(1001);
        List<String[]> bodies = List.of(
                new String[] {"nesting depth", deepObjects},
                new String[] {"nesting depth", "{\"browserAccess\":true,\"other\":" + deepArrays + "}"},
                new String[] {"nesting depth", body("project", deepObjects)},
                new String[] {"Number value length", body("wiki.read", "1".repeat(1001))},
                new String[] {"Number value length", body("project.projectServiceProjectId", "-" + "9".repeat(1001))});
        for (String[] sent : bodies) {
            HttpResponse<String> response = admin("PUT", "/admin/agents/strict-limit", sent[1]);
            assertInvalid(response, "body", sent[0]);
            assertTrue(response.body().contains(sent[0]) && !response.body().contains("Not valid JSON")
                    && !response.body().contains("StreamReadConstraints"), response.body());
        }
        assertEquals(404, admin("GET", "/admin/agents/strict-limit", null).statusCode(), "nothing was written");
    }

    /**
     * A member given twice, and bytes that are not UTF-8, on every admin body (a new user's trial found both taken: the
     * last member won, and the bytes were stored as U+FFFD): 400 {@code invalid_fields}, naming the member given
     * twice (once only "not valid JSON" on {@code body}, found by a later trial) or {@code body} for the bytes; nothing
     * written.
     */
    @Test
    void everyAdminBodyRefusesRepeatedMembersAndBytesThatAreNotUtf8() throws Exception {
        Map<String, String[]> writes = Map.of(
                "/admin/sessions", new String[] {"POST", "threadId", "\"t\""},
                "/admin/outside-agents", new String[] {"PUT", "issuer", "\"i\""},
                "/admin/notices/agents/strict-3", new String[] {"PUT", "projectClientId", "\"c\""},
                "/admin/service-clients/wiki/credential", new String[] {"PUT", "credential", "\"k\""},
                "/admin/agents/strict-3", new String[] {"PUT", "browserAccess", "true"});
        for (Map.Entry<String, String[]> write : writes.entrySet()) {
            String method = write.getValue()[0];
            String path = write.getKey();
            String member = "\"" + write.getValue()[1] + "\":";
            String twice = "{" + member + write.getValue()[2] + "," + member + write.getValue()[2] + "}";
            assertInvalid(send(method, path, twice.getBytes(StandardCharsets.UTF_8)), write.getValue()[1],
                    path + " " + twice);
            for (String hex : List.of("FF", "C0AF", "EDA080", "E282", "80")) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                bytes.writeBytes(("{" + member + "\"p").getBytes(StandardCharsets.UTF_8));
                bytes.writeBytes(HexFormat.of().parseHex(hex));
                bytes.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
                assertInvalid(send(method, path, bytes.toByteArray()), "body", path + " " + hex);
            }
        }
        // A member twice inside a nested object is named by its path.
        for (String[] c : new String[][] {
            {"{\"project\":{\"enabled\":true,\"enabled\":false}}", "project.enabled"},
            {"{\"wiki\":{\"read\":true,\"write\":true,\"read\":true}}", "wiki.read"},
            {"{\"wiki\":{\"read\":true},\"wiki\":{\"read\":true}}", "wiki"},
        }) {
            assertInvalid(admin("PUT", "/admin/agents/strict-3", c[0]), c[1], c[0]);
            assertTrue(admin("PUT", "/admin/agents/strict-3", c[0]).body().contains("Given twice"), c[0]);
        }
        assertEquals(404, admin("GET", "/admin/agents/strict-3", null).statusCode(), "nothing was written");
        HttpResponse<String> whole = admin("PUT", "/admin/agents/strict-5", "{\"browserAccess\":true,\"project\":"
                + "{\"enabled\":true,\"projectServiceProjectId\":\"p\"},\"wiki\":{\"read\":true,\"write\":false}}");
        assertEquals(200, whole.statusCode(), "every member once, nested ones too: " + whole.body());
    }

    /**
     * A string escape that leaves a surrogate unpaired (a new user's trial found {@code "\\udc00\\ud800"} answered
     * as stored and then read back as {@code ??}): 400 {@code invalid_fields} naming the member, nothing written; a
     * pair is one character and is kept.
     */
    @Test
    void everyAdminBodyRefusesUnpairedSurrogateEscapesNamingTheMember() throws Exception {
        Map<String, String[]> writes = Map.of(
                "/admin/sessions", new String[] {"POST", "threadId"},
                "/admin/outside-agents", new String[] {"PUT", "issuer"},
                "/admin/notices/agents/strict-4", new String[] {"PUT", "projectClientId"},
                "/admin/service-clients/wiki/credential", new String[] {"PUT", "credential"});
        for (String escape : List.of("\\ud800", "\\udc00", "a\\udc00\\ud800b", "\\ud800x", "x\\udbff")) {
            for (Map.Entry<String, String[]> write : writes.entrySet()) {
                String body = "{\"" + write.getValue()[1] + "\":\"" + escape + "\"}";
                assertInvalid(send(write.getValue()[0], write.getKey(), body.getBytes(StandardCharsets.UTF_8)),
                        write.getValue()[1], write.getKey() + " " + body);
            }
            String nested = "{\"project\":{\"enabled\":true,\"projectServiceProjectId\":\"" + escape + "\"}}";
            assertInvalid(send("PUT", "/admin/agents/strict-4", nested.getBytes(StandardCharsets.UTF_8)),
                    "project.projectServiceProjectId", nested);
            String name = "{\"" + escape + "\":true}";
            assertInvalid(send("PUT", "/admin/agents/strict-4", name.getBytes(StandardCharsets.UTF_8)), "body", name);
        }
        assertEquals(404, admin("GET", "/admin/agents/strict-4", null).statusCode(), "nothing was written");
        String pair = "{\"project\":{\"enabled\":true,\"projectServiceProjectId\":\"p\\ud83d\\ude00\"}}";
        assertEquals(200, send("PUT", "/admin/agents/strict-4", pair.getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals("p\uD83D\uDE00", JSON.readTree(admin("GET", "/admin/agents/strict-4", null).body())
                .path("project").path("projectServiceProjectId").asText(), "the pair is kept as one character");
    }

    private HttpResponse<String> send(String method, String path, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer bodies-test-credential").build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void missingThingsAre404WithAStructuredBody() throws Exception {
        for (String[] request : List.of(new String[] {"DELETE", "/admin/sessions/nonexistent"},
                new String[] {"GET", "/admin/decisions/00000000-0000-0000-0000-000000000000"},
                new String[] {"GET", "/admin/agents/never-set"})) {
            HttpResponse<String> response = admin(request[0], request[1], null);
            assertEquals(404, response.statusCode(), request[1]);
            assertEquals("not_found", JSON.readTree(response.body()).path("error").asText(), request[1]);
        }
        HttpResponse<String> badId = admin("GET", "/admin/decisions/not-a-uuid", null);
        assertEquals(400, badId.statusCode());
        assertTrue(badId.body().contains("structuredContent.decisionId"), badId.body());
    }
}
