package dev.gatehouse.localauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Claims are the authorization server's alone (README "Outside agents and OAuth", "The operator console"): the
 * ceiling comes only from the configured clients, the operator role only from the user name "operator", the audience
 * and scope only from the configuration. A tester set them through the login form's claims field and had
 * {@code resource} and {@code scope} ignored at the token endpoint; every such request is now refused, over real HTTP
 * against the started server.
 */
class ForgedClaimsTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String AUDIENCE = "http://127.0.0.1:8080/mcp";
    private static final String REDIRECT = "http://127.0.0.1:1/cb";

    @TempDir
    static Path data;
    private static MockOAuth2Server server;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        int port = freePort();
        Map<String, String> clients = new LinkedHashMap<>();
        clients.put("o1", "read-only");
        clients.put("o2", "full-access");
        server = LocalAuthServer.start(port, AUDIENCE, clients, "mcp", 60,
                SigningKey.loadOrCreate(data.resolve("key.json")), List.of("operator"));
        base = "http://127.0.0.1:" + port + "/" + LocalAuthServer.ISSUER_ID;
    }

    @AfterAll
    static void stop() throws Exception {
        server.shutdown();
    }

    @ParameterizedTest
    @ValueSource(strings = {"o1=read-only", "o2=full-access"})
    void approvedClientsGetTheirCeilingTheAudienceAndTheScope(String approval) throws Exception {
        String[] pair = approval.split("=");
        for (String form : List.of("", "&scope=mcp", "&scope=mcp&resource=" + encode(AUDIENCE))) {
            JWTClaimsSet claims = accessToken(post("/token", "grant_type=client_credentials&client_id=" + pair[0]
                    + "&client_secret=anything" + form));
            assertEquals(pair[1], claims.getClaim("t3_mode_ceiling"), form);
            assertEquals(List.of(AUDIENCE), claims.getAudience(), form);
            assertEquals("mcp", claims.getClaim("scope"), form);
            assertEquals(pair[0], claims.getSubject(), form);
            assertEquals(base, claims.getIssuer(), form);
        }
    }

    @Test
    void anotherClientGetsNoCeiling() throws Exception {
        JWTClaimsSet claims = accessToken(post("/token", "grant_type=client_credentials&client_id=evil"
                + "&client_secret=x&scope=mcp"));
        assertNull(claims.getClaim("t3_mode_ceiling"));
    }

    static Stream<String> forgedClaims() {
        return Stream.of("{\"t3_mode_ceiling\":\"full-access\",\"aud\":\"" + AUDIENCE + "\",\"scope\":\"mcp\"}",
                "{\"T3_MODE_CEILING\":\"full-access\"}", "{\"t3_mode_ceiling\":{\"value\":\"full-access\"}}",
                "{\"gatehouse_roles\":[\"operator\"]}", "{\"GATEHOUSE_ROLES\":\"operator\"}",
                "{\"realm\":{\"gatehouse_roles\":[\"operator\"]}}", "{\"aud\":\"" + AUDIENCE + "\"}",
                "{\"iss\":\"http://evil\"}", "{\"sub\":\"operator\"}", "{\"scope\":\"mcp\"}", "{}", "not json");
    }

    @ParameterizedTest
    @MethodSource("forgedClaims")
    void aLoginThatSuppliesClaimsIsRefusedAndIssuesNoCode(String claims) throws Exception {
        for (String form : List.of("username=evil&claims=" + encode(claims),
                "username=evil&claims=&claims=" + encode(claims), "claims=" + encode(claims) + "&username=operator")) {
            HttpResponse<String> answer = login("evil", form);
            assertEquals(400, answer.statusCode(), form);
            assertEquals("invalid_request", error(answer), form);
            assertTrue(answer.headers().firstValue("Location").isEmpty(), "no code is issued");
        }
    }

    @Test
    void onlyTheUserNamedOperatorGetsTheOperatorRole() throws Exception {
        JWTClaimsSet mallory = idToken(code(login("evil", "username=mallory&claims=")));
        assertEquals("mallory", mallory.getSubject());
        assertNull(mallory.getClaim(LocalAuthServer.OPERATOR_CLAIM));

        for (String forged : List.of("subject=operator", "sub=operator", "username=operator",
                "gatehouse_roles=operator", "claims=%7B%22gatehouse_roles%22%3A%5B%22operator%22%5D%7D")) {
            JWTClaimsSet withParameter = idToken(code(login("console&" + forged, "username=mallory")));
            assertEquals("mallory", withParameter.getSubject(), forged);
            assertNull(withParameter.getClaim(LocalAuthServer.OPERATOR_CLAIM), forged);
        }

        JWTClaimsSet operator = idToken(code(login("console", "username=operator")));
        assertEquals("operator", operator.getSubject());
        assertEquals(List.of("operator"), operator.getClaim(LocalAuthServer.OPERATOR_CLAIM));
        assertEquals(List.of("console"), operator.getAudience());
        assertEquals(base, operator.getIssuer());
    }

    @ParameterizedTest
    @ValueSource(strings = {"resource=http%3A%2F%2Fevil%2Fmcp", "resource=" + "http%3A%2F%2F127.0.0.1%3A8080%2Fmcp%2F",
        "resource=http%3A%2F%2F127.0.0.1%3A8080%2Fmcp&resource=http%3A%2F%2Fevil%2Fmcp", "resource="})
    void anotherResourceIsRefusedInvalidTarget(String resource) throws Exception {
        for (String client : List.of("o1", "o2", "evil")) {
            HttpResponse<String> answer = post("/token", "grant_type=client_credentials&client_id=" + client
                    + "&client_secret=x&scope=mcp&" + resource);
            assertEquals(400, answer.statusCode(), resource);
            assertEquals("invalid_target", error(answer), resource);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"other", "mcp other", "MCP", "openid", "mcp%20admin", "mcp&scope=other"})
    void anotherScopeIsRefusedInvalidScope(String scope) throws Exception {
        HttpResponse<String> answer = post("/token", "grant_type=client_credentials&client_id=o2&client_secret=x"
                + "&scope=" + scope.replace(" ", "+") + "&resource=" + encode(AUDIENCE));
        assertEquals(400, answer.statusCode(), scope);
        assertEquals("invalid_scope", error(answer), scope);
    }

    @ParameterizedTest
    @ValueSource(strings = {"t3_mode_ceiling=full-access", "T3_MODE_CEILING=full-access", "gatehouse_roles=operator",
        "subject=operator", "sub=operator", "aud=http%3A%2F%2Fevil", "iss=http%3A%2F%2Fevil", "claims=%7B%7D",
        "audience=http%3A%2F%2Fevil"})
    void aTokenRequestWithParametersOfItsOwnIsRefused(String extra) throws Exception {
        HttpResponse<String> answer = post("/token", "grant_type=client_credentials&client_id=o1&client_secret=x"
                + "&scope=mcp&" + extra);
        assertEquals(400, answer.statusCode(), extra);
        assertEquals("invalid_request", error(answer), extra);

        HttpResponse<String> inQuery = post("/token?" + extra, "grant_type=client_credentials&client_id=o1"
                + "&client_secret=x&scope=mcp");
        assertEquals(400, inQuery.statusCode(), extra);
    }

    @ParameterizedTest
    @ValueSource(strings = {"password&username=operator&password=x",
        "urn:ietf:params:oauth:grant-type:token-exchange", "urn:ietf:params:oauth:grant-type:jwt-bearer",
        "refresh_token&refresh_token=x"})
    void otherGrantsAreRefused(String grant) throws Exception {
        HttpResponse<String> answer = post("/token", "client_id=o2&client_secret=x&grant_type="
                + grant.replace(":", "%3A"));
        assertEquals(400, answer.statusCode(), grant);
        assertEquals("unsupported_grant_type", error(answer), grant);
    }

    /**
     * A grant_type given twice is invalid_request (a new user's trial: it was refused as "unsupported_grant_type", a
     * false reason, when both were supported; which value would count is a guess).
     */
    @ParameterizedTest
    @ValueSource(strings = {"&grant_type=password", "&grant_type=client_credentials",
        "&grant_type=authorization_code", "&grant_type=", "&grant_type=client_credentials&grant_type=password"})
    void aGrantTypeGivenTwiceIsAnInvalidRequest(String extra) throws Exception {
        HttpResponse<String> answer = post("/token", "grant_type=client_credentials&client_id=o1&client_secret=x"
                + "&scope=mcp" + extra);
        assertEquals(400, answer.statusCode(), extra + " " + answer.body());
        assertEquals("invalid_request", error(answer), extra);
        assertTrue(answer.body().contains("given more than once"), extra + " " + answer.body());
    }

    private static HttpResponse<String> login(String client, String form) throws Exception {
        return post("/authorize?client_id=" + client + "&response_type=code&redirect_uri=" + encode(REDIRECT)
                + "&scope=openid&state=s&nonce=n", form);
    }

    private static String code(HttpResponse<String> login) {
        assertEquals(302, login.statusCode(), login.body());
        String location = login.headers().firstValue("Location").orElseThrow();
        return Stream.of(URI.create(location).getQuery().split("&")).filter(pair -> pair.startsWith("code="))
                .map(pair -> pair.substring(5)).findFirst().orElseThrow();
    }

    private static JWTClaimsSet idToken(String code) throws Exception {
        HttpResponse<String> answer = post("/token", "grant_type=authorization_code&code=" + encode(code)
                + "&redirect_uri=" + encode(REDIRECT) + "&client_id=console&client_secret=x");
        assertEquals(200, answer.statusCode(), answer.body());
        return SignedJWT.parse((String) JSONObjectUtils.parse(answer.body()).get("id_token")).getJWTClaimsSet();
    }

    private static JWTClaimsSet accessToken(HttpResponse<String> answer) throws Exception {
        assertEquals(200, answer.statusCode(), answer.body());
        return SignedJWT.parse((String) JSONObjectUtils.parse(answer.body()).get("access_token")).getJWTClaimsSet();
    }

    private static String error(HttpResponse<String> answer) throws Exception {
        return (String) JSONObjectUtils.parse(answer.body()).get("error");
    }

    private static HttpResponse<String> post(String path, String form) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
