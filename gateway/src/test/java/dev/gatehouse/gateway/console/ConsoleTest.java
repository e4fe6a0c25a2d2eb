package dev.gatehouse.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.admin.QueryParameters;
import dev.gatehouse.gateway.admin.audit.AuditQuery;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.store.Database;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The console in-process, signed in by a session started the way the OpenID callback starts one (the OpenID sign-in
 * itself runs in the browser test against the local authorization server): pages, the CSRF check, expired and ended
 * sessions, the console and the other credentials kept apart, the audit of its changes, and escaping.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/console.jsonl")
class ConsoleTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    @Inject
    EmbeddedServer server;
    @Inject
    ConsoleSessions consoleSessions;
    @Inject
    SessionStore sessions;
    @Inject
    AgentSettingsStore settings;
    @Inject
    Database database;
    @Inject
    dev.gatehouse.gateway.admin.HeldCapabilities held;

    private String signIn(String subject) {
        return consoleSessions.start(new ConsoleSessions.Operator(subject, "https://issuer.example", subject));
    }

    private HttpResponse<String> get(String path, String cookie) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html");
        if (cookie != null) {
            request.header("Cookie", ConsoleCookie.NAME + "=" + cookie);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String cookie, Map<String, String> form) throws Exception {
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return HTTP.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", ConsoleCookie.NAME + "=" + cookie)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String csrf(String cookie) throws Exception {
        Matcher m = CSRF.matcher(get("/console", cookie).body());
        assertTrue(m.find(), "every signed-in page carries the sign-out form's token");
        return m.group(1);
    }

    private String base() {
        return "http://127.0.0.1:" + server.getPort();
    }

    @Test
    void everyPageAnswersWithAStrictPolicyAndNoScript() throws Exception {
        String cookie = signIn("op-pages");
        for (String path : List.of("/console", "/console/sessions", "/console/agents", "/console/service-clients",
                "/console/audit", "/console/decisions", "/console/policy", "/console/notices", "/console/sign-in")) {
            HttpResponse<String> page = get(path, cookie);
            assertEquals(200, page.statusCode(), path + " " + page.body());
            String csp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
            assertTrue(csp.contains("script-src 'none'") && csp.contains("style-src 'self'"), csp);
            assertEquals("no-store", page.headers().firstValue("Cache-Control").orElseThrow(), path);
            assertFalse(page.body().contains("<script") || page.body().contains("style="), path);
        }
        HttpResponse<String> css = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/console/static/console.css"))
                .header("Accept", "text/css,*/*;q=0.1").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, css.statusCode(), "the stylesheet needs no session");
    }

    @Test
    void aFormSentWithThePagesOwnOriginIsTakenAndTheReferrerPolicyKeepsThatOrigin() throws Exception {
        String cookie = signIn("op-origin");
        HttpResponse<String> page = get("/console/agents", cookie);
        // no-referrer made browsers send "Origin: null" with every form, which the CORS filter refuses with 403
        assertEquals("same-origin", page.headers().firstValue("Referrer-Policy").orElseThrow());
        HttpResponse<String> saved = HTTP.send(HttpRequest.newBuilder(URI.create(base()
                + "/console/agents/origin-agent/settings")).header("Accept", "text/html")
                .header("Origin", base()).header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", ConsoleCookie.NAME + "=" + cookie)
                .POST(HttpRequest.BodyPublishers.ofString("version=0&wikiRead=on&csrf=" + csrf(cookie))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(303, saved.statusCode(), saved.body());
    }

    @Test
    void withoutAConsoleSessionEveryPageSendsToSignInWhateverCredentialIsPresented() throws Exception {
        String agentToken = SessionTokens.mint();
        sessions.put(agentToken, new AgentSession("s-console-mcp", "local", "t1", "ps", "p-1", "a1", "proj-1",
                Optional.empty(), "codex"));
        for (String bearer : List.of(agentToken, "admin-test-credential")) {
            HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/console/agents"))
                    .header("Accept", "text/html").header("Authorization", "Bearer " + bearer).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(3, page.statusCode() / 100, "sent elsewhere");
            assertEquals("/console/sign-in", page.headers().firstValue("Location").orElseThrow());
            HttpResponse<String> api = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/console/agents"))
                    .header("Authorization", "Bearer " + bearer).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(401, api.statusCode(), "a client that does not ask for HTML is told 401");
        }
        String cookie = signIn("op-mcp");
        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        assertEquals(401, RawHttp.post(server.getPort(), list, "Cookie: " + ConsoleCookie.NAME + "=" + cookie,
                "Mcp-Method: tools/list", "MCP-Protocol-Version: 2026-07-28").status(), "/mcp ignores the cookie");
        assertEquals(401, HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/admin/sessions"))
                .header("Cookie", ConsoleCookie.NAME + "=" + cookie).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode(), "the admin API ignores the cookie");
    }

    @Test
    void aChangeWithoutTheSessionsCsrfTokenIsRefusedAndChangesNothing() throws Exception {
        String cookie = signIn("op-csrf");
        String other = csrf(signIn("op-other"));
        for (Map<String, String> form : List.<Map<String, String>>of(Map.of("version", "0", "wikiWrite", "on"),
                Map.of("version", "0", "wikiWrite", "on", "csrf", other))) {
            HttpResponse<String> refused = post("/console/agents/csrf-agent/settings", cookie, form);
            assertEquals(403, refused.statusCode(), refused.body());
            assertTrue(settings.find("csrf-agent").isEmpty());
        }
        HttpResponse<String> saved = post("/console/agents/csrf-agent/settings", cookie,
                Map.of("version", "0", "wikiWrite", "on", "csrf", csrf(cookie)));
        assertEquals(303, saved.statusCode(), saved.body());
        assertTrue(settings.find("csrf-agent").orElseThrow().settings().wiki().write());
    }

    /**
     * The token counts only in the form body (found by a new user's trial: {@code ?csrf=<token>} with no token in the
     * form attached a session): in the query string, alone or beside the form's, spelt as an escape, the change is
     * refused and nothing is done, on every form the console has.
     */
    @Test
    void aCsrfTokenInTheQueryStringIsRefusedWhateverTheFormHolds() throws Exception {
        String cookie = signIn("op-query");
        String token = csrf(cookie);
        for (String path : List.of("/console/agents/query-agent/settings", "/console/sessions",
                "/console/agents/query-agent/delivery-profile", "/console/service-clients/wiki/credential",
                "/console/sign-out")) {
            for (String query : List.of("?csrf=" + token, "?x=1&csrf=" + token, "?%63srf=" + token, "?csrf")) {
                for (Map<String, String> form : List.<Map<String, String>>of(Map.of("version", "0", "wikiWrite", "on"),
                        Map.of("version", "0", "wikiWrite", "on", "csrf", token))) {
                    HttpResponse<String> refused = post(path + query, cookie, form);
                    assertEquals(403, refused.statusCode(), path + query + " " + form.keySet() + ": " + refused.body());
                }
            }
        }
        assertTrue(settings.find("query-agent").isEmpty(), "nothing was changed");
        assertEquals(200, get("/console", cookie).statusCode(), "the session was not signed out");
    }

    /**
     * A form Jetty cannot read (found by a new user's trial: 500 and an ERROR with Jetty's stack, signed in or not):
     * longer than 200,000 bytes by its Content-Length is 413, a broken escape 400, on a console form; on the
     * sign-in callback, and for a client that takes only JSON, a client error too; nothing is changed.
     */
    @Test
    void aFormThatCannotBeReadIsAClientErrorNeverAServerError() throws Exception {
        String cookie = signIn("op-big-form");
        String token = csrf(cookie);
        String big = "version=0&wikiWrite=on&csrf=" + token + "&agentName=" + "p".repeat(250_000);
        Map<String, Integer> bodies = Map.of(big, 413, "version=0&csrf=" + token + "&wikiWrite=%zz", 400,
                "version=0&csrf=" + token + "&%", 400);
        for (String path : List.of("/console/agents/big-form-agent/settings", "/console/oauth/callback/console")) {
            for (Map.Entry<String, Integer> body : bodies.entrySet()) {
                for (String accept : List.of("text/html", "application/json")) {
                    HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(URI.create(base() + path))
                            .header("Accept", accept).header("Content-Type", "application/x-www-form-urlencoded")
                            .header("Cookie", ConsoleCookie.NAME + "=" + cookie)
                            .POST(HttpRequest.BodyPublishers.ofString(body.getKey())).build(),
                            HttpResponse.BodyHandlers.ofString());
                    String variant = path + " " + accept + " " + body.getKey().length() + " bytes";
                    assertTrue(refused.statusCode() >= 400 && refused.statusCode() < 500, variant + ": "
                            + refused.statusCode() + " " + refused.body());
                    if (path.contains("/agents/") && accept.equals("text/html")) { // JSON: 406 from the route
                        assertEquals(body.getValue(), refused.statusCode(), variant);
                    }
                    assertFalse(refused.body().contains("BadMessageException") || refused.body().contains("at org."),
                            variant);
                }
            }
        }
        assertTrue(settings.find("big-form-agent").isEmpty(), "nothing was changed");
    }

    @Test
    void anExpiredOrEndedSessionGoesBackToSignInAndItsEditIsNotApplied() throws Exception {
        String idle = signIn("op-idle");
        String token = csrf(idle);
        database.update("UPDATE console_session SET last_seen_at = now() - interval '16 minutes' WHERE id_sha256 = ?",
                statement -> statement.setString(1, SessionTokens.hash(idle)));
        HttpResponse<String> late = post("/console/agents/idle-agent/settings", idle,
                Map.of("version", "0", "wikiRead", "on", "csrf", token));
        assertEquals(3, late.statusCode() / 100);
        assertEquals("/console/sign-in", late.headers().firstValue("Location").orElseThrow());
        assertTrue(settings.find("idle-agent").isEmpty(), "the edit of an expired session is not applied");

        String ended = signIn("op-ended");
        String endedToken = csrf(ended);
        assertEquals(303, post("/console/sign-out", ended, Map.of("csrf", endedToken)).statusCode());
        assertEquals("/console/sign-in", get("/console", ended).headers().firstValue("Location").orElseThrow(),
                "signed out on every replica: the row is ended");
    }

    @Test
    void aStaleEditIsAConflictThatKeepsTheSubmittedValuesAndAppliesNothing() throws Exception {
        String cookie = signIn("op-stale");
        String agent = "stale-" + SessionTokens.newId();
        assertEquals(303, post("/console/agents/" + agent + "/settings", cookie,
                Map.of("version", "0", "wikiRead", "on", "csrf", csrf(cookie))).statusCode());
        settings.put(agent, settings.find(agent).orElseThrow().settings()); // someone else: version 2
        HttpResponse<String> stale = post("/console/agents/" + agent + "/settings", cookie, Map.of("version", "1",
                "wikiRead", "on", "wikiWrite", "on", "projectServiceProjectId", "kept-value", "csrf", csrf(cookie)));
        assertEquals(409, stale.statusCode());
        assertTrue(stale.body().contains("now version 2") && stale.body().contains("kept-value"), stale.body());
        assertFalse(settings.find(agent).orElseThrow().settings().wiki().write(), "nothing applied");

        // An edit for a version of an agent that has none (found by a new user's trial: "changed by someone else ...
        // now version 0") says that none is stored.
        String never = "never-" + SessionTokens.newId();
        HttpResponse<String> none = post("/console/agents/" + never + "/settings", cookie, Map.of("version", "1",
                "wikiRead", "on", "csrf", csrf(cookie)));
        assertEquals(409, none.statusCode());
        assertTrue(none.body().contains("no stored settings") && !none.body().contains("someone else"), none.body());
        assertTrue(settings.find(never).isEmpty(), "nothing applied");
    }

    /**
     * The console registers and removes through the admin API's service: an id another registration holds is refused
     * next to its field, and a removal takes the agent's settings with it (docs/domain.md §1).
     */
    @Test
    void aTakenIdIsRefusedAndARemovalTakesTheSettingsWithIt() throws Exception {
        String cookie = signIn("op-registrations");
        String issuer = "https://console-" + SessionTokens.newId() + ".example";
        String id = "oa-console-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        assertEquals(303, post("/console/agents/registrations", cookie, Map.of("issuer", issuer, "subject", "o1",
                "logicalAgentId", id, "wikiRead", "on", "wikiWrite", "on", "csrf", csrf(cookie))).statusCode());
        HttpResponse<String> taken = post("/console/agents/registrations", cookie, Map.of("issuer", issuer,
                "subject", "o2", "logicalAgentId", id, "csrf", csrf(cookie)));
        assertEquals(400, taken.statusCode());
        assertTrue(taken.body().contains("id=\"f-logicalAgentId-error\"") && taken.body().contains("subject o1"),
                taken.body());
        assertTrue(settings.find(id).orElseThrow().settings().wiki().write(), "o1's settings stand");

        // The agent page's remove button asks first (a new user's trial: one click removed it): the answer says what
        // goes and carries the confirming form; only that form's confirm=yes removes, with the session's token.
        HttpResponse<String> asked = post("/console/agents/registrations/remove", cookie, Map.of("issuer", issuer,
                "subject", "o1", "csrf", csrf(cookie)));
        assertEquals(200, asked.statusCode(), asked.body());
        assertTrue(asked.body().contains("name=\"confirm\" value=\"yes\"") && asked.body().contains(id)
                && asked.body().contains("settings are removed with it"), asked.body());
        assertTrue(settings.find(id).isPresent(), "asking removes nothing");
        for (String confirm : List.of("no", "", "YES", "true", "on")) {
            HttpResponse<String> refused = post("/console/agents/registrations/remove", cookie, Map.of("issuer",
                    issuer, "subject", "o1", "confirm", confirm, "csrf", csrf(cookie)));
            assertEquals(400, refused.statusCode(), confirm);
            assertTrue(refused.body().contains("The field <code>confirm</code>"), refused.body());
        }
        HttpResponse<String> stray = post("/console/agents/registrations/remove", cookie, Map.of("issuer", issuer,
                "subject", "o1", "confirm", "yes", "force", "1", "csrf", csrf(cookie)));
        assertEquals(400, stray.statusCode(), stray.body());
        assertEquals(403, post("/console/agents/registrations/remove", cookie, Map.of("issuer", issuer,
                "subject", "o1", "confirm", "yes", "csrf", csrf(signIn("op-other-remover")))).statusCode());
        assertEquals(403, post("/console/agents/registrations/remove", cookie, Map.of("issuer", issuer,
                "subject", "o1", "confirm", "yes")).statusCode());
        assertTrue(settings.find(id).isPresent(), "nothing was removed without a confirmation of this session");
        HttpResponse<String> removed = post("/console/agents/registrations/remove", cookie, Map.of("issuer", issuer,
                "subject", "o1", "confirm", "yes", "csrf", csrf(cookie)));
        assertEquals(303, removed.statusCode(), removed.body());
        assertTrue(settings.find(id).isEmpty(), "the settings went with the registration");
        assertEquals(404, post("/console/agents/registrations/remove", cookie, Map.of("issuer", issuer,
                "subject", "o1", "csrf", csrf(cookie))).statusCode(), "nothing left to confirm");
    }

    /**
     * Every console page refuses a parameter it does not take, one given twice and a value it does not know, with 400
     * and the problem said (a new user's trial: {@code ?ceiling=bogus} on an agent's page was shown as "no ceiling").
     */
    @Test
    void everyPageRefusesAParameterItDoesNotTakeAndAValueItDoesNotKnow() throws Exception {
        String cookie = signIn("op-parameters");
        String thread = "params-" + SessionTokens.newId();
        settings.put(thread, new dev.gatehouse.gateway.context.AgentSettings(false,
                new dev.gatehouse.gateway.context.AgentSettings.Project(false, Optional.empty()),
                new dev.gatehouse.gateway.context.AgentSettings.Wiki(true, false)));
        String outside = "oa-params-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        assertEquals(303, post("/console/agents/registrations", cookie, Map.of("issuer", "https://params.example",
                "subject", outside, "logicalAgentId", outside, "version", "0", "csrf", csrf(cookie))).statusCode());
        for (String path : List.of("/console", "/console/sessions", "/console/agents", "/console/agents/open",
                "/console/agents/" + thread, "/console/agents/" + outside, "/console/service-clients",
                "/console/policy", "/console/sign-in")) {
            HttpResponse<String> refused = get(path + "?bogus=1", cookie);
            assertEquals(400, refused.statusCode(), path);
            assertTrue(refused.body().contains("The parameter <code>bogus</code>: Not a parameter"), path + ": "
                    + refused.body());
            assertEquals(path.endsWith("/open") ? 303 : 200, get(path.endsWith("/open") ? path + "?agentId="
                    + thread : path, cookie).statusCode(), path + " without it");
        }
        String ceiling = held.ceilings().get(0);
        for (String[] c : new String[][] {{"ceiling=bogus", "The parameter <code>ceiling</code>: Takes "},
            {"ceiling=" + ceiling.toUpperCase(java.util.Locale.ROOT), "The parameter <code>ceiling</code>: Takes "},
            {"ceiling=" + ceiling + "&ceiling=" + ceiling, "Given 2 times"},
            {"celing=" + ceiling, "The parameter <code>celing</code>: Not a parameter"},
            {"saved=yes", "The parameter <code>saved</code>: Takes no value"},
            {"saved&saved", "Given 2 times"}}) {
            HttpResponse<String> refused = get("/console/agents/" + outside + "?" + c[0], cookie);
            assertEquals(400, refused.statusCode(), c[0]);
            assertTrue(refused.body().contains(c[1]), c[0] + ": " + refused.body());
            assertFalse(refused.body().contains("Capabilities held"), "the page is not shown: " + c[0]);
        }
        assertTrue(get("/console/agents/" + outside + "?ceiling=" + ceiling, cookie).body()
                .contains("at the <code>" + ceiling + "</code> ceiling"), "a served ceiling is asked about");
        assertTrue(get("/console/agents/" + outside, cookie).body().contains("for a token without a ceiling"));
        // A value given empty, blank or without '=' is refused as an unknown one is, never read as absent (a new
        // user's trial: ?ceiling= showed the page as if none was asked); the form's empty choice goes to /find.
        for (String empty : List.of("ceiling=", "ceiling", "ceiling=%20", "ceiling=%09", "ceiling=&saved",
                "saved&ceiling=")) {
            HttpResponse<String> refused = get("/console/agents/" + outside + "?" + empty, cookie);
            assertEquals(400, refused.statusCode(), empty);
            assertTrue(refused.body().contains("The parameter <code>ceiling</code>: " + QueryParameters.EMPTY),
                    empty + ": " + refused.body());
            assertFalse(refused.body().contains("Capabilities held"), "the page is not shown: " + empty);
        }
        for (String empty : List.of("replaced=", "removed", "replaced=%20", "removed=&replaced=wiki")) {
            HttpResponse<String> refused = get("/console/service-clients?" + empty, cookie);
            assertEquals(400, refused.statusCode(), empty);
            assertTrue(refused.body().contains(QueryParameters.EMPTY), empty + ": " + refused.body());
            assertFalse(refused.body().contains("credential was replaced"), empty);
        }
        for (String[] c : new String[][] {{"ceiling=", ""}, {"ceiling=" + ceiling, "?ceiling=" + ceiling},
            {"saved=", "?saved="}, {"ceiling=&ceiling=" + ceiling, "?ceiling=&ceiling=" + ceiling},
            {"ceiling", "?ceiling"}}) {
            HttpResponse<String> found = get("/console/agents/" + outside + "/find?" + c[0], cookie);
            assertEquals(303, found.statusCode(), c[0]);
            assertEquals("/console/agents/" + outside + c[1], found.headers().firstValue("Location").orElseThrow());
        }
        assertTrue(get("/console/agents/" + outside, cookie).body().contains("action=\"/console/agents/" + outside
                + "/find\""), "the ceiling form goes to /find");
        assertTrue(get("/console/agents/" + thread + "?saved", cookie).body().contains("Saved."));
        assertEquals(200, get("/console/agents/new-" + SessionTokens.newId() + "?new", cookie).statusCode());
        assertEquals(400, get("/console/agents/new-" + SessionTokens.newId() + "?new=1", cookie).statusCode());
        assertEquals(400, get("/console/sessions?revoked=a&revoked=b", cookie).statusCode());
        // A done-notice repeats no text from the address, which anyone can write (a new user's trial: ?removed=
        // and ?revoked= printed any text, a right-to-left override included, as a notice that it was done).
        for (String forged : List.of("/console/agents?removed=everything-important",
                "/console/agents?removed=abc%E2%80%AEdef", "/console/sessions?revoked=zzz",
                "/console/service-clients?replaced=everything", "/console/service-clients?removed=wiki%E2%80%AE",
                "/console/service-clients?replaced=WIKI")) {
            HttpResponse<String> refused = get(forged, cookie);
            assertEquals(400, refused.statusCode(), forged);
            assertFalse(refused.body().contains("everything-important") || refused.body().contains("zzz")
                    || refused.body().contains("\u202e") || refused.body().contains("removed, with"), forged);
        }
        assertTrue(get("/console/agents?removed", cookie).body()
                .contains("The registration was removed, with its agent's settings."));
        assertTrue(get("/console/sessions?revoked", cookie).body().contains("The session was revoked."));
        assertTrue(get("/console/service-clients?replaced=wiki", cookie).body()
                .contains("The wiki credential was replaced"));
        assertEquals(400, get("/console/sign-in?signed-out=no", cookie).statusCode());
        assertEquals(400, get("/console/agents/open?agentId=" + thread + "&agentID=x", cookie).statusCode());
        // The empty name is named readably, a name's invisible characters as text (a new user's trial: ?=x was
        // "The parameter : Not a parameter…"), on every page that lists parameter problems.
        for (String path : List.of("/console", "/console/sessions", "/console/agents/" + thread, "/console/audit",
                "/console/service-clients")) {
            for (String query : List.of("=x", "=", "=x&=y")) {
                HttpResponse<String> refused = get(path + "?" + query, cookie);
                assertEquals(400, refused.statusCode(), path + "?" + query);
                assertTrue(refused.body().contains("The parameter <code>" + Visible.EMPTY_NAME + "</code>: "),
                        path + "?" + query + ": " + refused.body());
                assertFalse(refused.body().contains("<code></code>"), path + "?" + query);
            }
            assertTrue(get(path + "?a%E2%80%AEb=1", cookie).body().contains("The parameter <code>a\\u202Eb</code>:"),
                    path + ": a bidi control in a name shown as text");
        }
    }

    /**
     * A form refuses a field it does not have, a checkbox value a ticked box does not send, and a version that is no
     * number, with 400, the form shown again saying why, and nothing saved (a new user's trial: {@code wikiRead=maybe}
     * was saved as off, a stray field was dropped, and a garbage version came back as -1); a field given twice too.
     */
    @Test
    void aFormRefusesAStrayFieldAnUnsentCheckboxValueAndABadVersionAndSavesNothing() throws Exception {
        String cookie = signIn("op-forms");
        String agent = "forms-" + SessionTokens.newId();
        for (Map.Entry<String, String> box : List.of(Map.entry("wikiRead", "maybe"), Map.entry("wikiRead", ""),
                Map.entry("wikiRead", "off"), Map.entry("wikiWrite", "ON"), Map.entry("browserAccess", "true"),
                Map.entry("projectEnabled", "1"))) {
            HttpResponse<String> refused = post("/console/agents/" + agent + "/settings", cookie, Map.of("version",
                    "0", box.getKey(), box.getValue(), "csrf", csrf(cookie)));
            assertEquals(400, refused.statusCode(), box.toString());
            assertTrue(refused.body().contains("The field <code>" + box.getKey() + "</code>: A checkbox"), box + ": "
                    + refused.body());
            assertTrue(refused.body().contains("Save settings"), "the form is shown again");
        }
        HttpResponse<String> misspelt = post("/console/agents/" + agent + "/settings", cookie, Map.of("version", "0",
                "wikiRead", "on", "wikiRaed", "on", "csrf", csrf(cookie)));
        assertEquals(400, misspelt.statusCode());
        assertTrue(misspelt.body().contains("The field <code>wikiRaed</code>: Not a field of this form"),
                misspelt.body());
        HttpResponse<String> unnamed = post("/console/agents/" + agent + "/settings", cookie, Map.of("version", "0",
                "", "on", "csrf", csrf(cookie)));
        assertEquals(400, unnamed.statusCode());
        assertTrue(unnamed.body().contains("The field <code>" + Visible.EMPTY_NAME + "</code>: Not a field of this"
                + " form"), "the empty name is named readably: " + unnamed.body());
        assertTrue(settings.find(agent).isEmpty(), "nothing was saved");

        settings.put(agent, new dev.gatehouse.gateway.context.AgentSettings(false,
                new dev.gatehouse.gateway.context.AgentSettings.Project(false, Optional.empty()),
                new dev.gatehouse.gateway.context.AgentSettings.Wiki(true, false)));
        for (String version : List.of("abc", "-1", "1.0", " 1", "1234567890123456789", "")) {
            HttpResponse<String> refused = post("/console/agents/" + agent + "/settings", cookie, Map.of("version",
                    version, "wikiWrite", "on", "projectServiceProjectId", "kept-value", "csrf", csrf(cookie)));
            assertEquals(400, refused.statusCode(), version);
            assertTrue(refused.body().contains("The field <code>version</code>: Not a version number"),
                    version + ": " + refused.body());
            assertTrue(refused.body().contains("name=\"version\" value=\"1\"") && refused.body().contains("Version 1.")
                    && !refused.body().contains("-1\"") && refused.body().contains("kept-value"),
                    "the stored version and the submitted values: " + refused.body());
        }
        HttpResponse<String> noVersion = post("/console/agents/" + agent + "/settings", cookie, Map.of("wikiWrite",
                "on", "csrf", csrf(cookie)));
        assertEquals(400, noVersion.statusCode());
        assertEquals(1, settings.find(agent).orElseThrow().version(), "nothing was saved");
        assertEquals(303, post("/console/agents/" + agent + "/settings", cookie, Map.of("version", "1",
                "wikiWrite", "on", "csrf", csrf(cookie))).statusCode(), "the form as the page sends it");
        for (String twice : List.of("wikiRead=on&wikiRead=maybe", "wikiRead=maybe&wikiRead=on",
                "version=2&wikiRead=on")) {
            HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/console/agents/"
                    + agent + "/settings")).header("Accept", "text/html")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Cookie", ConsoleCookie.NAME + "=" + cookie).POST(HttpRequest.BodyPublishers.ofString(
                            "version=2&" + twice + "&csrf=" + csrf(cookie))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, refused.statusCode(), twice + ": " + refused.body());
        }
        assertEquals(2, settings.find(agent).orElseThrow().version(), "a field given twice saved nothing");

        String issuer = "https://forms-" + SessionTokens.newId() + ".example";
        for (Map<String, String> form : List.<Map<String, String>>of(
                Map.of("issuer", issuer, "subject", "s", "version", "0", "wikiRead", "maybe"),
                Map.of("issuer", issuer, "subject", "s", "version", "0", "logicalAgentID", "oa-x"),
                Map.of("issuer", issuer, "subject", "s", "version", "zero"))) {
            Map<String, String> sent = new java.util.HashMap<>(form);
            sent.put("csrf", csrf(cookie));
            HttpResponse<String> refused = post("/console/agents/registrations", cookie, sent);
            assertEquals(400, refused.statusCode(), form.toString());
            assertTrue(refused.body().contains("The field <code>"), form + ": " + refused.body());
            assertTrue(refused.body().contains("value=\"" + issuer + "\""), "the form keeps the values");
        }
        assertFalse(get("/console/agents", cookie).body().contains(issuer), "nothing was registered");

        HttpResponse<String> profile = post("/console/agents/" + agent + "/delivery-profile", cookie, Map.of(
                "projectClientId", "c", "limitRuntimeMode", "full-access", "limitInteractionMode", "default",
                "runtimeMod", "x", "csrf", csrf(cookie)));
        assertEquals(400, profile.statusCode());
        assertTrue(profile.body().contains("The field <code>runtimeMod</code>: Not a field"), profile.body());
        HttpResponse<String> attach = post("/console/sessions", cookie, Map.of("logicalAgentId", agent,
                "threadId", "t", "environmentId", "local", "t3ProjectId", "p", "providerSessionId", "ps",
                "providerInstanceId", "pi", "provider", "codex", "token", "mine", "csrf", csrf(cookie)));
        assertEquals(400, attach.statusCode());
        assertTrue(attach.body().contains("The field <code>token</code>: Not a field"), attach.body());
        assertFalse(get("/console/sessions", cookie).body().contains(agent), "no session was attached");
        assertEquals(400, post("/console/service-clients/wiki/credential", cookie, Map.of("credential", "c",
                "credentials", "c", "csrf", csrf(cookie))).statusCode());
        assertEquals(400, post("/console/service-clients/wiki/credential/remove", cookie, Map.of("all", "on",
                "csrf", csrf(cookie))).statusCode());
        assertEquals(400, post("/console/sign-out", cookie, Map.of("everywhere", "on", "csrf", csrf(cookie)))
                .statusCode());
        assertEquals(200, get("/console", cookie).statusCode(), "still signed in");
    }

    /**
     * The registration form carries the version it was made from, so a stale console edit (someone changed or removed
     * the registration meanwhile, through the API or another console) is refused with a message and the submitted
     * values kept, as a thread agent's settings form is; the list's form registers new pairs only.
     */
    @Test
    void aStaleRegistrationEditIsAConflictThatKeepsTheSubmittedValuesAndAppliesNothing() throws Exception {
        String cookie = signIn("op-stale-registration");
        String issuer = "https://console-" + SessionTokens.newId() + ".example";
        String id = "oa-stale-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        assertEquals(303, post("/console/agents/registrations", cookie, Map.of("issuer", issuer, "subject", "o1",
                "logicalAgentId", id, "version", "0", "wikiRead", "on", "csrf", csrf(cookie))).statusCode());
        String page = get("/console/agents/" + id, cookie).body();
        assertTrue(page.contains("name=\"version\" value=\"1\""), page);

        Map<String, String> edit = new java.util.HashMap<>(Map.of("from", id, "issuer", issuer, "subject", "o1",
                "logicalAgentId", id, "version", "1", "wikiRead", "on", "csrf", csrf(cookie)));
        assertEquals(303, post("/console/agents/registrations", cookie, edit).statusCode(), "someone else: version 2");
        edit.putAll(Map.of("wikiWrite", "on", "projectServiceProjectId", "kept-value", "csrf", csrf(cookie)));
        HttpResponse<String> stale = post("/console/agents/registrations", cookie, edit);
        assertEquals(409, stale.statusCode());
        assertTrue(stale.body().contains("changed by someone else") && stale.body().contains("now version 2")
                && stale.body().contains("kept-value") && stale.body().contains("name=\"version\" value=\"2\""),
                stale.body());
        assertFalse(settings.find(id).orElseThrow().settings().wiki().write(), "nothing applied");

        HttpResponse<String> again = post("/console/agents/registrations", cookie, Map.of("issuer", issuer,
                "subject", "o1", "version", "0", "csrf", csrf(cookie)));
        assertEquals(409, again.statusCode(), "the list's form registers new pairs only");
        assertTrue(again.body().contains("registered already"), again.body());
        assertTrue(settings.find(id).orElseThrow().settings().wiki().read(), "nothing applied");

        // A version that is no number is refused on the agent's page, shown again at the version stored now.
        for (String version : List.of("abc", "-1", "")) {
            edit.putAll(Map.of("version", version, "csrf", csrf(cookie)));
            HttpResponse<String> bad = post("/console/agents/registrations", cookie, edit);
            assertEquals(400, bad.statusCode(), version);
            assertTrue(bad.body().contains("The field <code>version</code>: Not a version number")
                    && bad.body().contains("name=\"version\" value=\"2\"") && bad.body().contains("kept-value")
                    && !bad.body().contains("someone else"), version + ": " + bad.body());
        }
        assertFalse(settings.find(id).orElseThrow().settings().wiki().write(), "nothing applied");

        assertEquals(303, post("/console/agents/registrations/remove", cookie, Map.of("issuer", issuer,
                "subject", "o1", "confirm", "yes", "csrf", csrf(cookie))).statusCode());
        edit.put("version", "2");
        edit.put("csrf", csrf(cookie));
        HttpResponse<String> removed = post("/console/agents/registrations", cookie, edit);
        assertEquals(409, removed.statusCode());
        assertTrue(removed.body().contains("not registered any more") && !removed.body().contains("someone else"),
                removed.body());
        assertTrue(settings.find(id).isEmpty(), "nothing applied");
    }

    /** docs/domain.md §9: the console's profile form refuses an outside agent as the admin API does. */
    @Test
    void aDeliveryProfileOfAnOutsideAgentIsRefused() throws Exception {
        String cookie = signIn("op-profile");
        HttpResponse<String> refused = post("/console/agents/oa-x/delivery-profile", cookie, Map.of(
                "projectClientId", "c-1", "limitRuntimeMode", "auto", "limitInteractionMode", "default",
                "csrf", csrf(cookie)));
        assertEquals(400, refused.statusCode());
        assertTrue(refused.body().contains("only to thread agents"), refused.body());
        assertEquals(0, database.query("SELECT agent_id FROM notice_agent WHERE agent_id = 'oa-x'", statement -> {
        }, row -> row.getString(1)).size(), "nothing written");
    }

    @Test
    void badInputIsAnsweredNextToItsField() throws Exception {
        String cookie = signIn("op-bad");
        HttpResponse<String> namespace = get("/console/agents/open?agentId=oa-x", cookie);
        assertEquals(303, namespace.statusCode(), "an outside agent's id opens its page");
        assertEquals(404, get("/console/agents/oa-x?new", cookie).statusCode(), "unknown outside agent");
        assertEquals(404, get("/console/agents/nobody-" + SessionTokens.newId(), cookie).statusCode());
        HttpResponse<String> control = get("/console/agents/open?agentId=" + URLEncoder.encode("a\u0007b",
                StandardCharsets.UTF_8), cookie);
        assertEquals(400, control.statusCode());
        assertTrue(control.body().contains("id=\"f-agentId-error\""), control.body());
        HttpResponse<String> outside = post("/console/agents/oa-x/settings", cookie,
                Map.of("version", "0", "csrf", csrf(cookie)));
        assertEquals(400, outside.statusCode(), "settings of an oa- id go through its registration");
        HttpResponse<String> project = post("/console/agents/bad-project/settings", cookie,
                Map.of("version", "0", "projectEnabled", "on", "csrf", csrf(cookie)));
        assertEquals(400, project.statusCode());
        assertTrue(project.body().contains("id=\"f-projectServiceProjectId-error\""), project.body());
        HttpResponse<String> attach = post("/console/sessions", cookie, Map.of("logicalAgentId", "oa-1",
                "threadId", "t", "csrf", csrf(cookie)));
        assertEquals(400, attach.statusCode());
        assertTrue(attach.body().contains("id=\"f-environmentId-error\""), attach.body());
    }

    @Test
    void consoleChangesAreAuditedUnderTheOperatorsSubjectAndShownByTheApi() throws Exception {
        String cookie = signIn("op-audit");
        String agent = "audited-" + SessionTokens.newId();
        post("/console/agents/" + agent + "/settings", cookie, Map.of("version", "0", "wikiRead", "on",
                "csrf", csrf(cookie)));
        HttpResponse<String> api = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/admin/audit?agent="
                + agent)).header("Authorization", "Bearer admin-test-credential").build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode entries = JSON.readTree(api.body()).path("entries");
        assertEquals(1, entries.size(), api.body());
        assertEquals("op-audit", entries.get(0).path("actor").asText());
        assertEquals("operator", entries.get(0).path("actorKind").asText());
        assertEquals(0, entries.get(0).path("beforeVersion").asLong());
        assertEquals(1, entries.get(0).path("afterVersion").asLong());
        assertEquals("wiki read: off → on", entries.get(0).path("detail").asText());
        assertTrue(get("/console/audit?subject=op-audit", cookie).body().contains(agent));
        // A misspelt or repeated filter is refused and said, as by the API (a new user's trial: ?agnet=a1 listed all).
        for (String[] c : new String[][] {{"agnet=" + agent, "The parameter <code>agnet</code>"},
            {"subject=x&subject=y", "Given 2 times"}, {"limit=0", "The parameter <code>limit</code>"},
            {"before=abc", "The parameter <code>before</code>"}}) {
            HttpResponse<String> refused = get("/console/audit?" + c[0], cookie);
            assertEquals(400, refused.statusCode(), c[0]);
            assertTrue(refused.body().contains(c[1]), c[0] + ": " + refused.body());
            assertFalse(refused.body().contains("wiki read: off"), "nothing listed: " + c[0]);
        }
        // An empty filter is refused the same way, never read as no filter; the form sends only what was filled in.
        for (String[] c : new String[][] {{"subject=", "id=\"f-subject-error\""}, {"agent=%20", "id=\"f-agent-error\""},
            {"agent=&subject=op-audit", "id=\"f-agent-error\""}, {"before=", "The parameter <code>before</code>"},
            {"subject", "id=\"f-subject-error\""}}) {
            HttpResponse<String> refused = get("/console/audit?" + c[0], cookie);
            assertEquals(400, refused.statusCode(), c[0]);
            assertTrue(refused.body().contains(c[1]) && refused.body().contains(QueryParameters.EMPTY),
                    c[0] + ": " + refused.body());
            assertFalse(refused.body().contains("wiki read: off"), "nothing listed: " + c[0]);
        }
        for (String[] c : new String[][] {{"subject=op-audit&agent=", "/console/audit?subject=op-audit"},
            {"subject=&agent=", "/console/audit"}, {"bogus=&agent=", "/console/audit?bogus="},
            {"agent=&agent=a2", "/console/audit?agent=&agent=a2"}, {"before=&subject=", "/console/audit?before="},
            {"subject", "/console/audit?subject"}}) {
            HttpResponse<String> found = get("/console/audit/find?" + c[0], cookie);
            assertEquals(303, found.statusCode(), c[0]);
            assertEquals(c[1], found.headers().firstValue("Location").orElseThrow(), c[0]);
        }
    }

    @Test
    void olderChangesKeepsTheFiltersOfThePageItFollows() throws Exception {
        String cookie = signIn("op-older");
        String other = "older-other-" + SessionTokens.newId();
        String agent = "older-" + SessionTokens.newId();
        putWikiRead(other, true); // older than every change of agent: listed on the older page if the filter fell off
        for (int i = 0; i <= AuditQuery.DEFAULT_LIMIT; i++) {
            putWikiRead(agent, i % 2 == 0);
        }

        String first = get("/console/audit?agent=" + agent, cookie).body();
        Matcher older = Pattern.compile("<a href=\"([^\"]*)\">Older changes</a>").matcher(first);
        assertTrue(older.find(), first);
        String link = older.group(1).replace("&amp;", "&");
        assertTrue(link.startsWith("/console/audit?agent=" + agent + "&before="), link);
        String next = get(link, cookie).body();
        assertTrue(next.contains(agent), next);
        assertFalse(next.contains(other), "the older page is still filtered by agent: " + next);
        assertFalse(next.contains("Older changes"), "one change was left for the second page");
    }

    private void putWikiRead(String agent, boolean read) throws Exception {
        HttpResponse<String> put = HTTP.send(HttpRequest.newBuilder(URI.create(base() + "/admin/agents/" + agent))
                .header("Authorization", "Bearer admin-test-credential").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"browserAccess\":false,\"project\":{\"enabled\":false},"
                        + "\"wiki\":{\"read\":" + read + ",\"write\":false}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, put.statusCode(), put.body());
    }

    @Test
    void markupScriptBidiAndZeroWidthPayloadsFromAgentsRenderAsVisibleText() throws Exception {
        String cookie = signIn("op-escape");
        for (String payload : List.of("<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>",
                "\u202Egnp.exe", "<b>bold</b>&amp;", "name\u202Etxet.exe", "a\u2066b\u2069", "zero\u200Bwidth",
                "join\u200Ded", "\uFEFFbom", "mark\u061C", "lro\u202Dx")) {
            String agent = "esc" + Math.abs(payload.hashCode());
            sessions.put(SessionTokens.mint(), new AgentSession("s-" + agent, "local", payload, "ps", "p-1", agent,
                    payload, Optional.of(payload), "codex"));
            settings.put(agent, new dev.gatehouse.gateway.context.AgentSettings(false,
                    new dev.gatehouse.gateway.context.AgentSettings.Project(true, Optional.of(payload)),
                    new dev.gatehouse.gateway.context.AgentSettings.Wiki(false, false)));
            for (String path : List.of("/console/sessions", "/console/agents", "/console/agents/" + agent)) {
                String body = get(path, cookie).body();
                assertFalse(body.contains(payload) && payload.contains("<"), path + " shows raw markup " + payload);
                assertFalse(body.contains("<script>alert") || body.contains("<img src=x"), path);
                String invisible = payload.codePoints().filter(c -> Character.getType(c) == Character.FORMAT)
                        .mapToObj(Character::toString).findFirst().orElse("");
                if (!invisible.isEmpty()) {
                    String shown = Visible.text(payload);
                    assertTrue(shown.contains(String.format("\\u%04X", invisible.codePointAt(0))), shown);
                    // a form field keeps the stored value so that saving it changes nothing; text never has it raw
                    assertFalse(body.replaceAll("value=\"[^\"]*\"", "").contains(invisible),
                            path + " hides or reorders with " + shown);
                    assertTrue(body.contains("<bdi>" + shown + "</bdi>"), "escaped visibly and isolated: " + path);
                }
            }
        }
    }
}
