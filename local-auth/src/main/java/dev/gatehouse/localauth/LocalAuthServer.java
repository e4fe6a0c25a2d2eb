package dev.gatehouse.localauth;

import com.nimbusds.jose.jwk.RSAKey;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;

/**
 * The OAuth 2.1 authorization server of {@code make run} and the end-to-end tests: {@code mock-oauth2-server}
 * in-process, on 127.0.0.1 only, with one issuer ({@value #ISSUER_ID}). It publishes RFC 8414 metadata (at
 * {@code /.well-known/oauth-authorization-server/gatehouse}, {@link PathInsertedMetadata}, and the suffixed and
 * OpenID forms under {@code /gatehouse/}), a JWKS and a token endpoint.
 *
 * <p>The approval is the server's, never the client's: each approved outside agent is a client id mapped to its
 * mode ceiling, and a token issued to that client carries {@code sub} = the client id, {@code aud} = the gateway's
 * MCP resource, {@code scope} and the {@code t3_mode_ceiling} claim. A client not in the list gets a token without
 * a ceiling, which the gateway refuses. Like every mock server it accepts any client secret: local use only.
 *
 * <p>Tokens are signed with this installation's own key ({@link SigningKey}: generated into
 * {@code GATEHOUSE_AUTH_KEY_FILE}, mode 600, on first start, and reused), never with the keys that ship inside
 * mock-oauth2-server's library, which anyone could use to mint a token the gateway would accept. The gateway finds the
 * public half at the issuer's JWKS URL.
 *
 * <p>It is also the operator console's OpenID provider (authorization code + PKCE, interactive login): its login page
 * asks for a user name, and the users named in {@code GATEHOUSE_AUTH_OPERATORS} get the claim
 * {@value #OPERATOR_CLAIM} = {@code ["operator"]} in their ID token, which makes them console operators; any other
 * name signs in without it (the console answers 403). The login page's claims field is refused ({@link LoginGuard}),
 * and so is a token request for another grant, resource, scope or with parameters of its own
 * ({@link TokenRequestGuard}): every claim is the server's.
 *
 * <p>Environment: {@code GATEHOUSE_AUTH_KEY_FILE} (required: the signing key's file, e.g.
 * {@code .gatehouse-data/secrets/local-auth-signing-key.json}), {@code GATEHOUSE_AUTH_PORT} (8282),
 * {@code GATEHOUSE_AUTH_AUDIENCE} ({@code http://127.0.0.1:8080/mcp}), {@code GATEHOUSE_AUTH_CLIENTS}
 * ({@code o1=read-only}: comma-separated {@code client=ceiling}), {@code GATEHOUSE_AUTH_SCOPE} ({@code mcp}),
 * {@code GATEHOUSE_AUTH_TOKEN_SECONDS} (3600), {@code GATEHOUSE_AUTH_OPERATORS} ({@code operator}: comma-separated
 * user names). Stops on SIGTERM or Ctrl-C.
 */
public final class LocalAuthServer {

    /** The issuer's path segment: the issuer is {@code http://127.0.0.1:<port>/gatehouse}. */
    public static final String ISSUER_ID = "gatehouse";

    /** The ID token claim that makes a console operator (the gateway's gatehouse.console.operator-claim). */
    public static final String OPERATOR_CLAIM = "gatehouse_roles";

    private LocalAuthServer() {
    }

    public static void main(String[] args) throws Exception {
        String keyFile = env("GATEHOUSE_AUTH_KEY_FILE", "");
        if (keyFile.isEmpty()) {
            System.err.println("GATEHOUSE_AUTH_KEY_FILE must name the signing key's file (made on first start)");
            System.exit(2);
        }
        int port = Integer.parseInt(env("GATEHOUSE_AUTH_PORT", "8282"));
        MockOAuth2Server server = start(port, env("GATEHOUSE_AUTH_AUDIENCE", "http://127.0.0.1:8080/mcp"),
                clients(env("GATEHOUSE_AUTH_CLIENTS", "o1=read-only")), env("GATEHOUSE_AUTH_SCOPE", "mcp"),
                Long.parseLong(env("GATEHOUSE_AUTH_TOKEN_SECONDS", "3600")), SigningKey.loadOrCreate(Path.of(keyFile)),
                List.of(env("GATEHOUSE_AUTH_OPERATORS", "operator").split(",")));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            stopped.countDown();
        }, "local-auth-shutdown"));
        System.out.println("local-auth issuer http://127.0.0.1:" + port + "/" + ISSUER_ID);
        stopped.await();
    }

    /**
     * Starts the server on 127.0.0.1, signing with {@code signingKey} (a private RSA key).
     *
     * @param clients    approved client id → mode ceiling, in order
     * @param signingKey the installation's own signing key ({@link SigningKey})
     * @param operators  user names whose interactive login makes them console operators
     */
    public static MockOAuth2Server start(int port, String audience, Map<String, String> clients, String scope,
            long tokenSeconds, RSAKey signingKey, List<String> operators) throws Exception {
        MockOAuth2Server server = new MockOAuth2Server(OAuth2Config.Companion.fromJson(
                config(audience, clients, scope, tokenSeconds, signingKey, operators)), new PathInsertedMetadata(),
                new LoginGuard(), new TokenRequestGuard(audience, scope));
        // The library hands its initial keys to issuers in the order they are first asked for: bind ours to the one
        // issuer now, before any request could ask for another issuer first (that one gets a fresh key of its own).
        server.getConfig().getTokenProvider().publicJwkSet(ISSUER_ID);
        server.start(InetAddress.getByName("127.0.0.1"), port);
        return server;
    }

    static String config(String audience, Map<String, String> clients, String scope, long tokenSeconds,
            RSAKey signingKey, List<String> operators) {
        StringBuilder mappings = new StringBuilder();
        // Interactive logins are matched by the user name typed (mock-oauth2-server's "subject" parameter). No aud
        // here: the ID token's audience stays the console's client id.
        for (String operator : operators) {
            if (operator.isBlank()) {
                continue;
            }
            if (mappings.length() > 0) {
                mappings.append(',');
            }
            mappings.append("{\"requestParam\":\"subject\",\"match\":").append(quote(Pattern.quote(operator.strip())))
                    .append(",\"claims\":{").append(quote(OPERATOR_CLAIM)).append(":[\"operator\"]}}");
        }
        clients.forEach((client, ceiling) -> {
            if (mappings.length() > 0) {
                mappings.append(',');
            }
            // The mock server reads `match` as a regular expression: quoted, a client id matches only itself.
            mappings.append("{\"requestParam\":\"client_id\",\"match\":").append(quote(Pattern.quote(client)))
                    .append(",\"claims\":{\"sub\":").append(quote(client))
                    .append(",\"aud\":[").append(quote(audience)).append(']')
                    .append(",\"scope\":").append(quote(scope))
                    .append(",\"t3_mode_ceiling\":").append(quote(ceiling)).append("}}");
        });
        return "{\"interactiveLogin\":true,\"httpServer\":\"NettyWrapper\",\"tokenProvider\":{\"keyProvider\":"
                + "{\"initialKeys\":" + quote(signingKey.toJSONString()) + ",\"algorithm\":\"RS256\"}},"
                + "\"tokenCallbacks\":[{\"issuerId\":" + quote(ISSUER_ID) + ",\"tokenExpiry\":" + tokenSeconds
                + ",\"requestMappings\":[" + mappings + "]}]}";
    }

    static Map<String, String> clients(String spec) {
        Map<String, String> clients = new LinkedHashMap<>();
        for (String entry : spec.split(",")) {
            String[] pair = entry.trim().split("=", 2);
            if (pair.length != 2 || pair[0].isBlank() || pair[1].isBlank()) {
                throw new IllegalArgumentException("GATEHOUSE_AUTH_CLIENTS entries are client=ceiling, got " + entry);
            }
            clients.put(pair[0].trim(), pair[1].trim());
        }
        return clients;
    }

    /** A JSON string literal. */
    private static String quote(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
