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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

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
    @org.junit.jupiter.api.extension.RegisterExtension
    static final org.junit.jupiter.api.extension.TestWatcher FAILURES = new org.junit.jupiter.api.extension.TestWatcher() {
        @Override
        public void testFailed(org.junit.jupiter.api.extension.ExtensionContext context, Throwable cause) {
            try {
                String name = "failed-" + context.getRequiredTestMethod().getName();
                Files.write(screenshots.resolve(name + ".png"),
                        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
                Files.writeString(screenshots.resolve(name + ".html"), browser.getCurrentUrl() + "\n"
                        + browser.getPageSource());
            } catch (Exception | AssertionError e) {
                cause.addSuppressed(e);
            }
        }
    };

    static GatewayStack stack;
    static WebDriver browser;
    static Path screenshots;
    static String axe;
    static String sessionId;
    static String token;

    @BeforeAll
    static void start() throws Exception {
        Path repo = Path.of(System.getProperty("gatehouse.repo.dir", ".."));
        Process ensure = new ProcessBuilder(repo.resolve("scripts/ensure-chromium.sh").toString()).inheritIO().start();
        assertEquals(0, ensure.waitFor(), "chromium and chromedriver");
        NodeClients.install(NodeClients.directory());
        axe = Files.readString(NodeClients.directory().resolve("node_modules/axe-core/axe.min.js"));
        Path work = Files.createTempDirectory("gatehouse-console-it-");
        // The gateway starts with a wrong Wiki credential: the console shows it failing and replaces it.
        // Notices are on, so the Notices page shows one delivered and one refused.
        stack = GatewayStack.start(work, Map.of("GATEHOUSE_SERVICES_WIKI_CREDENTIAL", "a-wrong-credential",
                "GATEHOUSE_NOTICES_ENABLED", "true", "GATEHOUSE_NOTICES_CLIENT_ID", "c-e2e",
                "GATEHOUSE_NOTICES_HOST_PROJECT", "demo"));
        screenshots = Path.of("target", "console-screenshots");
        Files.createDirectories(screenshots);
        try (var old = Files.list(screenshots)) {
            for (Path file : old.toList()) {
                Files.delete(file); // only this run's pictures are reviewed
            }
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(which("chromium"));
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + Files.createTempDirectory("gatehouse-chromium-"), "--window-size=1280,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(which("chromedriver")).toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
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
        look("sign-in");
        signInAs("visitor");
        waitFor(ExpectedConditions.titleContains("Not an operator"));
        assertTrue(browser.findElement(By.tagName("main")).getText().contains("not an operator"));
        look("not-an-operator");
        browser.get(stack.baseUrl() + "/console/agents");
        assertTrue(browser.getCurrentUrl().endsWith("/console/sign-in"), "no session was made");
    }

    @Test
    @Order(2)
    void anOperatorSignsInAndSeesTheOverview() throws Exception {
        signInAs("operator");
        waitFor(ExpectedConditions.titleContains("Overview"));
        String main = browser.findElement(By.tagName("main")).getText();
        assertTrue(main.contains("bundleRevision") && main.contains("Decisions per minute"), main);
        look("overview");
        var cookie = browser.manage().getCookieNamed("gatehouse_console");
        assertTrue(cookie.isHttpOnly());
        assertEquals("Strict", cookie.getSameSite());
    }

    @Test
    @Order(3)
    void anAttachedSessionShowsItsTokenOnceAndNamesRenderAsText() throws Exception {
        browser.get(stack.baseUrl() + "/console/sessions");
        fill("logicalAgentId", "a1");
        fill("threadId", "t1");
        fill("t3ProjectId", "demo");
        fill("providerSessionId", "ps-t1");
        fill("providerInstanceId", "pi-1");
        fill("agentName", PAYLOAD);
        submit("form[action='/console/sessions'] button[type=submit]");
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("token"))); // the answer to the POST, not the form
        token = browser.findElement(By.id("token")).getAttribute("value");
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
        look("sessions-token-once");
        browser.get(stack.baseUrl() + "/console/sessions");
        assertFalse(browser.getPageSource().contains(token), "shown once only");
        assertEquals(0L, ((Number) js("return document.querySelectorAll('img[src=x], main script').length"))
                .longValue(), "markup from an agent name is not markup");
        assertTrue(browser.findElement(By.tagName("main")).getText().contains("<img src=x onerror=alert(1)>"));
        assertTrue(browser.findElement(By.tagName("main")).getText().contains("\\u202Eevil"),
                "the right-to-left override shows as text, not reordering the name");
        sessionId = browser.findElement(By.cssSelector("td.id bdi")).getText();
        look("sessions");
    }

    @Test
    @Order(4)
    void wikiWriteTurnedOffIsDeniedAtTheNextCall() throws Exception {
        browser.get(stack.baseUrl() + "/console/agents/a1?new");
        setChecked("wikiRead", true);
        setChecked("wikiWrite", false);
        submit("form[action$='/settings'] button[type=submit]");
        waitFor(ExpectedConditions.urlContains("saved"));
        look("agent");
        JsonNode denied = call("wiki_write", "{\"path\":\"console.md\",\"content\":\"x\"}");
        assertTrue(denied.path("denied").asBoolean(), denied.toString());
        assertEquals("capability_missing", denied.path("codes").get(0).asText(), denied.toString());

        browser.get(stack.baseUrl() + "/console/agents/a1");
        setChecked("wikiWrite", true);
        submit("form[action$='/settings'] button[type=submit]");
        waitFor(ExpectedConditions.urlContains("saved"));
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
        look("service-clients-failing");

        fill("credential-wiki", stack.serviceCredential());
        submit("section[aria-labelledby='client-wiki'] form[action$='/credential'] button[type=submit]");
        waitFor(ExpectedConditions.urlContains("replaced=wiki"));
        assertFalse(browser.getPageSource().contains(stack.serviceCredential()), "write-only");
        JsonNode written = call("wiki_write", "{\"path\":\"console.md\",\"content\":\"x\"}");
        assertFalse(written.path("isError").asBoolean(), written.toString());
        browser.get(stack.baseUrl() + "/console/service-clients");
        assertTrue(browser.findElement(By.cssSelector("section[aria-labelledby='client-wiki']")).getText()
                .contains("works"));
        look("service-clients");
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
        fill("agent", "a1");
        fill("reason", reason);
        submit("form[action='/console/decisions'] button[type=submit]");
        waitFor(ExpectedConditions.urlContains("reason="));
        assertTrue(browser.findElement(By.cssSelector("a[href='/console/decisions/" + id + "']")).isDisplayed());
        assertEquals(Boolean.TRUE, js("const t = document.querySelector('div[aria-label=Decisions]');"
                + " return t.scrollWidth <= t.clientWidth"), "the decisions table fits 1280 px: no sideways scroll");
        look("decisions");
        browser.get(stack.baseUrl() + "/console/decisions");
        fill("decisionId", id);
        submit("form[action='/console/decisions'] button[type=submit]");
        waitFor(ExpectedConditions.urlContains("/console/decisions/" + id));
        browser.findElement(By.linkText("Replay this decision")).click();
        waitFor(ExpectedConditions.urlContains("replay=true"));
        String page = browser.findElement(By.tagName("main")).getText();
        assertTrue(page.contains(reason), page);
        assertTrue(page.contains("same decision"), page);
        assertTrue(page.contains("<script>alert(2)</script>"), "the payload shows as text: " + page);
        assertTrue(browser.findElements(By.cssSelector("main img, main script")).isEmpty(), "and never as markup");
        look("decision");
        browser.findElement(By.linkText("Explain this decision")).click();
        waitFor(ExpectedConditions.urlContains("explain=true"));
        assertTrue(browser.findElement(By.cssSelector("pre[aria-label=Trace]")).getText().contains("Fail"),
                "the opa eval --explain=fails trace");
        assertEquals(Boolean.TRUE, js("const p = document.querySelector('pre[aria-label=Trace]');"
                + " return p.scrollWidth <= p.clientWidth && p.clientHeight <= 32 * 16 && p.tabIndex === 0"),
                "the trace wraps its lines and scrolls in its own focusable box");
        look("decision-explained");
        browser.get(stack.baseUrl() + "/console/policy");
        assertTrue(browser.findElement(By.cssSelector("table.matrix")).isDisplayed());
        look("policy");
    }

    @Test
    @Order(7)
    void aStaleEditShowsTheConflictAndAppliesNothing() throws Exception {
        browser.get(stack.baseUrl() + "/console/agents/a1");
        setChecked("browserAccess", true);
        stack.settings("a1", "{\"wiki\":{\"read\":true,\"write\":true}}"); // someone else, meanwhile
        submit("form[action$='/settings'] button[type=submit]");
        String conflict = browser.findElement(By.cssSelector("[role=alert]")).getText();
        assertTrue(conflict.contains("not applied"), conflict);
        assertTrue(browser.findElement(By.name("browserAccess")).isSelected(), "the submitted values are kept");
        JsonNode stored = JSON.readTree(stack.admin("GET", "/admin/agents/a1", "").body());
        assertFalse(stored.path("browserAccess").asBoolean(), stored.toString());
        look("agent-conflict");
    }

    @Test
    @Order(8)
    void aRevokedSessionsTokenGets401() throws Exception {
        browser.get(stack.baseUrl() + "/console/sessions");
        submit("form[action$='/revoke'] button[type=submit]");
        waitFor(ExpectedConditions.urlContains("revoked="));
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
        look("notices");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("f-state"))).selectByValue("delivered");
        fill("agent", "a-notices");
        submit("form[action='/console/notices'] button[type=submit]");
        waitFor(ExpectedConditions.urlContains("state=delivered"));
        String delivered = browser.findElement(By.tagName("main")).getText();
        assertTrue(delivered.contains(run + "-a-notices") && !delivered.contains("a-no-profile"), delivered);
        assertTrue(browser.findElement(By.cssSelector("[aria-label='Aggregates per thread']")).getText()
                .contains("(current)"), "the thread the aggregate went to");
        look("notices-delivered");
    }

    @Test
    @Order(10)
    void theAuditShowsEveryChangeByWhoMadeIt() throws Exception {
        browser.get(stack.baseUrl() + "/console/agents");
        look("agents");
        browser.get(stack.baseUrl() + "/console/audit");
        String audit = browser.findElement(By.tagName("main")).getText();
        for (String action : List.of("session.attach", "agent.settings", "service.credential.replace",
                "session.revoke")) {
            assertTrue(audit.contains(action), action + " in\n" + audit);
        }
        assertFalse(browser.getPageSource().contains(stack.serviceCredential()), "never a secret");
        look("audit");
        JsonNode api = JSON.readTree(stack.admin("GET", "/admin/audit?subject=operator", "").body());
        assertTrue(api.path("entries").size() >= 5, api.toString());
        browser.findElement(By.cssSelector("form.signout button")).click();
        waitFor(ExpectedConditions.urlContains("signed-out"));
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

    private static void signInAs(String user) {
        browser.get(stack.baseUrl() + "/console/sign-in");
        browser.findElement(By.linkText("Sign in with the identity provider")).click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.name("username")));
        browser.findElement(By.name("username")).sendKeys(user);
        browser.findElement(By.cssSelector("input[type=submit]")).click();
    }

    private static void fill(String id, String value) {
        WebElement field = browser.findElement(By.id(id.startsWith("credential-") ? id : "f-" + id));
        field.clear();
        field.sendKeys(value);
    }

    private static void setChecked(String name, boolean on) {
        WebElement box = browser.findElement(By.name(name));
        if (box.isSelected() != on) {
            box.click();
        }
    }

    private static void submit(String css) {
        browser.findElement(By.cssSelector(css)).click();
    }

    private static void waitFor(org.openqa.selenium.support.ui.ExpectedCondition<?> condition) {
        new WebDriverWait(browser, Duration.ofSeconds(30)).until(condition);
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    /** axe-core on the page (no serious or critical violation), then a full-page screenshot. */
    private static void look(String name) throws Exception {
        js(axe);
        String violations = (String) ((JavascriptExecutor) browser).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "axe.run(document, {resultTypes: ['violations']})"
                        + ".then(r => done(JSON.stringify(r.violations)), e => done(JSON.stringify([{impact:"
                        + "'critical', id: 'axe-failed', help: String(e)}])));");
        List<String> serious = new ArrayList<>();
        for (JsonNode violation : JSON.readTree(violations)) {
            String impact = violation.path("impact").asText();
            if (impact.equals("serious") || impact.equals("critical")) {
                serious.add(violation.path("id").asText() + ": " + violation.path("help").asText() + " "
                        + violation.path("nodes").toString());
            }
        }
        long height = ((Number) js("return Math.max(document.body.scrollHeight, 600)")).longValue();
        browser.manage().window().setSize(new Dimension(1280, (int) Math.min(height + 120, 4000)));
        Files.write(screenshots.resolve(name + ".png"),
                ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        browser.manage().window().setSize(new Dimension(1280, 900));
        assertTrue(serious.isEmpty(), name + ": " + String.join("\n", serious));
    }

    private static String which(String command) {
        for (String dir : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError(command + " is not on PATH (scripts/ensure-chromium.sh installs it)");
    }
}
