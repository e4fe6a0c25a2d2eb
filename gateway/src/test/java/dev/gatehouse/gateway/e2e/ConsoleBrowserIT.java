package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The operator console in a real browser (headless Chromium and chromium-driver from Debian, driven by Selenium)
 * against the packaged system ({@link GatewayStack}: gateway, local-services, local-auth as the OpenID provider),
 * one browser and one stack for the whole class, in order: a non-operator is refused; an operator signs in, attaches
 * a session, turns its agent's wiki write off and a real MCP client's next {@code wiki_write} is denied
 * {@code capability_missing}; the Wiki credential the gateway started with is wrong, the console shows it failing,
 * the operator enters the right one and the next call succeeds; a stale edit shows the conflict; a revoked session's
 * token gets 401. Every page is checked with axe-core (no serious or critical violation) and photographed under
 * {@code target/console-screenshots/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Markup, script and a right-to-left override, as an agent could name itself. */
    private static final String PAYLOAD = "<img src=x onerror=alert(1)><script>alert(2)</script>\u202Eevil";

    /** On a failure, what the browser showed: target/console-screenshots/failed-<test>.png and .html. */
    @RegisterExtension
    static final TestWatcher FAILURES = ConsoleBrowser.failures(() -> ConsoleBrowserIT.console);

    static GatewayStack stack;
    static ConsoleBrowser console;
    static WebDriver browser;
    static String sessionId;
    static String token;

    /** The stack's files; JUnit deletes them after the class. */
    @TempDir
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        console = ConsoleBrowser.open(Path.of("target", "console-screenshots"));
        browser = console.driver();
        // The gateway starts with a wrong Wiki credential: the console shows it failing and replaces it.
        // Notices are on, so the Notices page shows one delivered and one refused.
        stack = GatewayStack.start(work, Map.of("GATEHOUSE_SERVICES_WIKI_CREDENTIAL", "a-wrong-credential",
                "GATEHOUSE_NOTICES_ENABLED", "true", "GATEHOUSE_NOTICES_CLIENT_ID", "c-e2e",
                "GATEHOUSE_NOTICES_HOST_PROJECT", "demo"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (console != null) {
            console.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void aUserWithoutTheOperatorRoleIsRefused() throws Exception {
        browser.get(stack.baseUrl() + "/console");
        assertTrue(browser.getCurrentUrl().endsWith("/console/sign-in"), browser.getCurrentUrl());
        console.look("sign-in");
        console.signInAs(stack.baseUrl(), "visitor");
        console.waitFor(ExpectedConditions.titleContains("Not an operator"));
        assertTrue(browser.findElement(By.tagName("main")).getText().contains("not an operator"));
        console.look("not-an-operator");
        browser.get(stack.baseUrl() + "/console/agents");
        assertTrue(browser.getCurrentUrl().endsWith("/console/sign-in"), "no session was made");
    }

    @Test
    @Order(2)
    void anOperatorSignsInAndSeesTheOverview() throws Exception {
        console.signInAs(stack.baseUrl(), "operator");
        console.waitFor(ExpectedConditions.titleContains("Overview"));
        String main = browser.findElement(By.tagName("main")).getText();
        assertTrue(main.contains("bundleRevision") && main.contains("Decisions per minute"), main);
        console.look("overview");
        var cookie = browser.manage().getCookieNamed("gatehouse_console");
        assertTrue(cookie.isHttpOnly());
        assertEquals("Strict", cookie.getSameSite());
    }

    @Test
    @Order(3)
    void anAttachedSessionShowsItsTokenOnceAndNamesRenderAsText() throws Exception {
        browser.get(stack.baseUrl() + "/console/sessions");
        console.fill("logicalAgentId", "a1");
        console.fill("threadId", "t1");
        console.fill("t3ProjectId", "demo");
        console.fill("providerSessionId", "ps-t1");
        console.fill("providerInstanceId", "pi-1");
        console.fill("agentName", PAYLOAD);
        console.submit("form[action='/console/sessions'] button[type=submit]");
        // the answer to the POST, not the form
        console.waitFor(ExpectedConditions.presenceOfElementLocated(By.id("token")));
        token = browser.findElement(By.id("token")).getAttribute("value");
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
        console.look("sessions-token-once");
        browser.get(stack.baseUrl() + "/console/sessions");
        assertFalse(browser.getPageSource().contains(token), "shown once only");
        assertEquals(0L, ((Number) console.js("return document.querySelectorAll('img[src=x], main script')"
                + ".length")).longValue(), "markup from an agent name is not markup");
        assertTrue(browser.findElement(By.tagName("main")).getText().contains("<img src=x onerror=alert(1)>"));
        assertTrue(browser.findElement(By.tagName("main")).getText().contains("\\u202Eevil"),
                "the right-to-left override shows as text, not reordering the name");
        sessionId = browser.findElement(By.cssSelector("td.id bdi")).getText();
        console.look("sessions");
    }

    @Test
    @Order(4)
    void wikiWriteTurnedOffIsDeniedAtTheNextCall() throws Exception {
        browser.get(stack.baseUrl() + "/console/agents/a1?new");
        console.setChecked("wikiRead", true);
        console.setChecked("wikiWrite", false);
        console.submit("form[action$='/settings'] button[type=submit]");
        console.waitFor(ExpectedConditions.urlContains("saved"));
        console.look("agent");
        JsonNode denied = call("wiki_write", "{\"path\":\"console.md\",\"content\":\"x\"}");
        assertTrue(denied.path("denied").asBoolean(), denied.toString());
        assertEquals("capability_missing", denied.path("codes").get(0).asText(), denied.toString());

        browser.get(stack.baseUrl() + "/console/agents/a1");
        console.setChecked("wikiWrite", true);
        console.submit("form[action$='/settings'] button[type=submit]");
        console.waitFor(ExpectedConditions.urlContains("saved"));
        assertTrue(browser.findElement(By.cssSelector("ul.scopes")).getText().contains("wiki.write"));
    }

    @Test
    @Order(5)
    void aFailingWikiCredentialIsShownAndReplacedAndTheNextCallSucceeds() throws Exception {
        JsonNode refused = call("wiki_write", "{\"path\":\"console.md\",\"content\":\"x\"}");
        assertTrue(refused.path("isError").asBoolean() && !refused.path("denied").asBoolean(), refused.toString());
        browser.get(stack.baseUrl() + "/console/service-clients");
        String wiki = browser.findElement(By.cssSelector("section[aria-labelledby='client-wiki']")).getText();
        assertTrue(wiki.contains("FAILING"), wiki);
        JsonNode health = JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/health"))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        assertEquals("failing", health.path("services").path("wiki").path("state").asText(), health.toString());
        assertEquals(200, stack.admin("GET", "/admin/sessions", "").statusCode(), "nothing was deleted");
        console.look("service-clients-failing");

        console.fill("credential-wiki", stack.serviceCredential());
        console.submit("section[aria-labelledby='client-wiki'] form[action$='/credential'] button[type=submit]");
        console.waitFor(ExpectedConditions.urlContains("replaced=wiki"));
        assertFalse(browser.getPageSource().contains(stack.serviceCredential()), "write-only");
        JsonNode written = call("wiki_write", "{\"path\":\"console.md\",\"content\":\"x\"}");
        assertFalse(written.path("isError").asBoolean(), written.toString());
        browser.get(stack.baseUrl() + "/console/service-clients");
        assertTrue(browser.findElement(By.cssSelector("section[aria-labelledby='client-wiki']")).getText()
                .contains("works"));
        console.look("service-clients");
    }

    @Test
    @Order(6)
    void aDeniedCallIsFoundByAgentReasonAndIdReplayedExplainedAndThePolicyShown() throws Exception {
        JsonNode denied = call("no_such_tool_" + "x", "{\"note\":\"" + PAYLOAD.replace("\"", "\\\"") + "\"}");
        assertTrue(denied.path("denied").asBoolean(), denied.toString());
        String id = denied.path("decisionId").asText();
        assertTrue(id.matches("[0-9a-f-]{36}"), denied.toString());
        String reason = denied.path("codes").get(0).asText();
        // the index is written off the request path: wait for the feed, as an auditor would search again
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (stack.admin("GET", "/admin/decisions/" + id, "").statusCode() != 200) {
            assertTrue(System.nanoTime() < deadline, "the decision reached the index");
            Thread.sleep(100);
        }
        browser.get(stack.baseUrl() + "/console/decisions");
        console.fill("agent", "a1");
        console.fill("reason", reason);
        console.submit("form[action='/console/decisions/find'] button[type=submit]");
        console.waitFor(ExpectedConditions.urlContains("reason="));
        assertTrue(browser.findElement(By.cssSelector("a[href='/console/decisions/" + id + "']")).isDisplayed());
        assertEquals(Boolean.TRUE, console.js("const t = document.querySelector('div[aria-label=Decisions]');"
                + " return t.scrollWidth <= t.clientWidth"), "the decisions table fits 1280 px: no sideways scroll");
        console.look("decisions");
        browser.get(stack.baseUrl() + "/console/decisions?outcom=denied"); // misspelt: the search is not run
        String refused = browser.findElement(By.cssSelector("main [role=alert]")).getText();
        assertTrue(refused.contains("The parameter outcom: Not a parameter of this search"), refused);
        assertTrue(browser.findElements(By.cssSelector("div[aria-label=Decisions]")).isEmpty(), "nothing listed");
        console.look("decisions-misspelt");
        browser.get(stack.baseUrl() + "/console/decisions");
        console.fill("decisionId", id);
        console.submit("form[action='/console/decisions/find'] button[type=submit]");
        console.waitFor(ExpectedConditions.urlContains("/console/decisions/" + id));
        browser.findElement(By.linkText("Replay this decision")).click();
        console.waitFor(ExpectedConditions.urlContains("replay=true"));
        String page = browser.findElement(By.tagName("main")).getText();
        assertTrue(page.contains(reason), page);
        assertTrue(page.contains("same decision"), page);
        assertTrue(page.contains("<script>alert(2)</script>"), "the payload shows as text: " + page);
        assertTrue(browser.findElements(By.cssSelector("main img, main script")).isEmpty(), "and never as markup");
        console.look("decision");
        browser.findElement(By.linkText("Explain this decision")).click();
        console.waitFor(ExpectedConditions.urlContains("explain=true"));
        assertTrue(browser.findElement(By.cssSelector("pre[aria-label=Trace]")).getText().contains("Fail"),
                "the opa eval --explain=fails trace");
        assertEquals(Boolean.TRUE, console.js("const p = document.querySelector('pre[aria-label=Trace]');"
                + " return p.scrollWidth <= p.clientWidth && p.clientHeight <= 32 * 16 && p.tabIndex === 0"),
                "the trace wraps its lines and scrolls in its own focusable box");
        console.look("decision-explained");
        browser.get(stack.baseUrl() + "/console/policy");
        assertTrue(browser.findElement(By.cssSelector("table.matrix")).isDisplayed());
        console.look("policy");
    }

    @Test
    @Order(7)
    void aStaleEditShowsTheConflictAndAppliesNothing() throws Exception {
        browser.get(stack.baseUrl() + "/console/agents/a1");
        console.setChecked("browserAccess", true);
        stack.settings("a1", "{\"wiki\":{\"read\":true,\"write\":true}}"); // someone else, meanwhile
        console.submit("form[action$='/settings'] button[type=submit]");
        String conflict = browser.findElement(By.cssSelector("[role=alert]")).getText();
        assertTrue(conflict.contains("not applied"), conflict);
        assertTrue(browser.findElement(By.name("browserAccess")).isSelected(), "the submitted values are kept");
        JsonNode stored = JSON.readTree(stack.admin("GET", "/admin/agents/a1", "").body());
        assertFalse(stored.path("browserAccess").asBoolean(), stored.toString());
        console.look("agent-conflict");
    }

    @Test
    @Order(8)
    void aRevokedSessionsTokenGets401() throws Exception {
        browser.get(stack.baseUrl() + "/console/sessions");
        console.submit("form[action$='/revoke'] button[type=submit]");
        console.waitFor(ExpectedConditions.urlContains("?revoked"));
        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        HttpResponse<String> after = HTTP.send(HttpRequest.newBuilder(URI.create(stack.mcpUrl()))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("Mcp-Method", "tools/list")
                .header("MCP-Protocol-Version", "2026-07-28").POST(HttpRequest.BodyPublishers.ofString(list))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, after.statusCode(), after.body());
    }

    @Test
    @Order(9)
    void aDeliveredAndARefusedNoticeAreShownByStateAndAgent() throws Exception {
        stack.settings("a-notices", """
                {"browserAccess":false,"project":{"enabled":true,"projectServiceProjectId":"ps-demo"},
                 "wiki":{"read":true,"write":false}}""");
        HttpResponse<String> profile = stack.admin("PUT", "/admin/notices/agents/a-notices", """
                {"projectClientId":"c-e2e","runtimeMode":"full-access","interactionMode":"plan",
                 "limitRuntimeMode":"auto","limitInteractionMode":"default"}""");
        assertEquals(200, profile.statusCode(), profile.body());
        String run = "run-" + java.util.UUID.randomUUID();
        for (String agent : List.of("a-notices", "a-no-profile")) {
            HttpResponse<String> assigned = stack.service("POST", "/project/v1/admin/assignments",
                    JSON.writeValueAsString(Map.of("clientId", "c-e2e", "agentId", agent, "agentName", PAYLOAD,
                            "projectId", "ps-demo", "projectName", "Demo", "runId", run + "-" + agent, "title",
                            PAYLOAD)), java.util.Optional.empty());
            assertTrue(assigned.statusCode() < 300, assigned.body());
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!reached(run, "a-notices", "delivered") || !reached(run, "a-no-profile", "refused")) {
            assertTrue(System.nanoTime() < deadline, "this run's notice delivered and the other refused");
            Thread.sleep(200);
        }
        browser.get(stack.baseUrl() + "/console/notices");
        String page = browser.findElement(By.tagName("main")).getText();
        assertTrue(page.contains(run + "-a-notices") && page.contains(run + "-a-no-profile"), page);
        assertTrue(page.contains("notice_agent_unknown"), "the refusal's reason: " + page);
        console.look("notices");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("f-state"))).selectByValue("delivered");
        console.fill("agent", "a-notices");
        console.submit("form[action='/console/notices/find'] button[type=submit]");
        console.waitFor(ExpectedConditions.urlContains("state=delivered"));
        String delivered = browser.findElement(By.tagName("main")).getText();
        assertTrue(delivered.contains(run + "-a-notices") && !delivered.contains("a-no-profile"), delivered);
        assertTrue(browser.findElement(By.cssSelector("[aria-label='Aggregates per thread']")).getText()
                .contains("(current)"), "the thread the aggregate went to");
        console.look("notices-delivered");
    }

    /**
     * A sign-in callback with a state nobody issued (anyone can send one; found by a new user's trial: an ERROR with
     * Micronaut Security's stack each time, and 500 for a state that is not base64) is refused 401 and logged as one
     * WARN line, nothing at ERROR.
     */
    @Test
    @Order(11)
    void aForgedSignInStateIsRefusedAndLoggedAsOneWarning() throws Exception {
        // Base64 that is no state, a state naming no nonce, characters that are not base64 (500 before), none.
        for (String state : List.of("garbage", "eyJub25jZSI6InguLi4ifQ", "%7B%7D", "%25%25", "a%20b", "")) {
            HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl()
                    + "/console/oauth/callback/console?code=x&state=" + state)).header("Accept", "text/html").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, refused.statusCode(), state + ": " + refused.body());
        }
        String log = stack.log("gateway");
        assertTrue(log.contains("console sign-in failed (401)"), log);
        assertFalse(log.contains("Failed to deserialize") || log.contains("\"level\":\"ERROR\"")
                || log.contains(" ERROR "), log);
    }

    @Test
    @Order(10)
    void theAuditShowsEveryChangeByWhoMadeIt() throws Exception {
        browser.get(stack.baseUrl() + "/console/agents");
        console.look("agents");
        browser.get(stack.baseUrl() + "/console/audit");
        String audit = browser.findElement(By.tagName("main")).getText();
        for (String action : List.of("session.attach", "agent.settings", "service.credential.replace",
                "session.revoke")) {
            assertTrue(audit.contains(action), action + " in\n" + audit);
        }
        assertFalse(browser.getPageSource().contains(stack.serviceCredential()), "never a secret");
        console.look("audit");
        JsonNode api = JSON.readTree(stack.admin("GET", "/admin/audit?subject=operator", "").body());
        assertTrue(api.path("entries").size() >= 5, api.toString());
        browser.findElement(By.cssSelector("form.signout button")).click();
        console.waitFor(ExpectedConditions.urlContains("signed-out"));
        browser.get(stack.baseUrl() + "/console");
        assertTrue(browser.getCurrentUrl().endsWith("/console/sign-in"), "signed out");
    }

    /** Whether {@code agent}'s notice of this run is in {@code state}, as the admin API lists it. */
    private static boolean reached(String run, String agent, String state) throws Exception {
        JsonNode listed = JSON.readTree(stack.admin("GET", "/admin/notices/receipts?agent=" + agent + "&state="
                + state, "").body()).path("notices");
        for (JsonNode notice : listed) {
            if (notice.path("run").asText().equals(run + "-" + agent)) {
                return true;
            }
        }
        return false;
    }

    private JsonNode call(String tool, String arguments) throws Exception {
        NodeClients.Run run = NodeClients.run(List.of("node", "call.mjs", "modern", tool, arguments),
                Map.of("MCP_URL", stack.mcpUrl(), "TOKEN", token), 120);
        assertEquals(0, run.exitCode(), run.output());
        String[] lines = run.output().strip().split("\n");
        return JSON.readTree(lines[lines.length - 1]);
    }
}
