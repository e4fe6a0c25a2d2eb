package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.bundle.SignedBundles;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The console's decisions, policy and notices pages on two gateway replicas (separate processes, as {@code make
 * replicas} runs them: one PostgreSQL, one local-services, local-auth signing operators in), in a real browser
 * (headless Chromium, as {@link ConsoleBrowserIT}), one stack and one browser for the class, in order: a real MCP
 * client makes allowed and denied calls through {@code /mcp} of each replica, one with markup in a logged argument;
 * an operator signed in once finds each replica's calls from the other replica's console by agent, by reason code
 * and by the decision id the client got, and the markup shows as text; a decision is explained and replayed; a new
 * signed revision (the access table's {@code t3_project_list} made a write) is written over the bundle file both
 * replicas watch, and the Policy page shows it served with the matrix diff naming the read-only caller's
 * {@code t3_project_list} cell, while the replay of a read-only agent's earlier {@code t3_project_list} says the
 * served revision would change it and the one that decided would not; a notice delivered by the replica holding the
 * streams shows on the other's Notices page. Every page is checked with axe-core and photographed under
 * {@code target/console-screenshots/replicas/}. Run alone: {@code make bundle}, then {@code mvn -B -ntp -pl gateway
 * -am verify -Dit.test=ConsoleReplicasBrowserIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleReplicasBrowserIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Markup in a logged argument (a wiki page's content). */
    private static final String PAYLOAD = "<img src=x onerror=alert(1)><script>alert(2)</script>";
    private static final String WIKI_READ_ONLY = "{\"browserAccess\":false,\"project\":{\"enabled\":false},"
            + "\"wiki\":{\"read\":true,\"write\":false}}";
    /** The revision served after the first ({@code t3_project_list} a write); short enough to show whole. */
    private static final String SWAPPED = "swapped-rev";
    private static final String SWAPPED_TOOL = "t3_project_list";

    @RegisterExtension
    static final TestWatcher FAILURES = ConsoleBrowser.failures(() -> ConsoleReplicasBrowserIT.console);

    static EmbeddedPostgres postgres;
    static GatewayStack a;
    static GatewayStack b;
    static ConsoleBrowser console;
    static WebDriver browser;
    static CompletableFuture<Path> swapped;
    static String firstRevision;
    /** The client's answers: a1 through A, a2 through B, the read-only outside agent through A. */
    static JsonNode a1Allowed;
    static JsonNode a1Denied;
    static JsonNode a2Allowed;
    static JsonNode a2Denied;
    static JsonNode outsideAllowed;

    /** The stack's files; JUnit deletes them after the class. */
    @TempDir
    static Path work;

    @BeforeAll
    static void start() throws Exception {
        console = ConsoleBrowser.open(Path.of("target", "console-screenshots", "replicas"));
        browser = console.driver();
        // the next revision is built (opa build, signed as make bundle signs) while the replicas start
        swapped = CompletableFuture.supplyAsync(() -> buildSwapped(work.resolve("swap")));
        postgres = EmbeddedPostgres.builder().setDataDirectory(work.resolve("pg")).setCleanDataDirectory(true)
                .setServerConfig("listen_addresses", "127.0.0.1").start();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement create = connection.createStatement()) {
            create.execute("CREATE DATABASE gatehouse");
        }
        Path password = Files.writeString(work.resolve("db-password"), "unused-with-trust-auth\n");
        String jdbc = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/gatehouse";
        List<GatewayStack> replicas = GatewayStack.startWatchingReplicas(Files.createDirectories(work.resolve("a")),
                env(jdbc, password, "a"), Files.createDirectories(work.resolve("b")), env(jdbc, password, "b"));
        a = replicas.get(0);
        b = replicas.get(1);
        firstRevision = revision(a);
    }

    @AfterAll
    static void stop() throws Exception {
        if (console != null) {
            console.close();
        }
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    @Order(1)
    void allowedAndDeniedCallsThroughEachReplicasMcp() throws Exception {
        a.settings("a1", WIKI_READ_ONLY);
        a.settings("a2", WIKI_READ_ONLY);
        a.registerOutsideAgent("o1", "oa-o1", "{\"wiki\":{\"read\":true,\"write\":false}}");
        String a1 = a.attach("a1", "t1", "pi-1");
        String a2 = b.attach("a2", "t2", "pi-2");

        List<JsonNode> throughA = calls(a, a1, "wiki_read", "{\"path\":\"page.md\"}",
                "wiki_read", "{\"path\":\"../a2/secret.md\"}");
        a1Allowed = throughA.get(0);
        a1Denied = throughA.get(1);
        List<JsonNode> throughB = calls(b, a2, "wiki_read", "{\"path\":\"page.md\"}",
                "wiki_write", JSON.writeValueAsString(Map.of("path", "notes.md", "content", PAYLOAD)));
        a2Allowed = throughB.get(0);
        a2Denied = throughB.get(1);
        outsideAllowed = calls(a, a.outsideAgentToken("o1"), SWAPPED_TOOL, "{}").get(0);
        for (JsonNode allowed : List.of(a1Allowed, a2Allowed, outsideAllowed)) {
            assertFalse(allowed.path("isError").asBoolean(), allowed.toString());
        }
        for (JsonNode denied : List.of(a1Denied, a2Denied)) {
            assertTrue(denied.path("denied").asBoolean(), denied.toString());
        }
        assertEquals("capability_missing", reason(a2Denied), a2Denied.toString());
        // the index is written off the request path: each decision is findable once both replicas' feeds ran
        for (JsonNode answer : List.of(a1Allowed, a1Denied, a2Allowed, a2Denied, outsideAllowed)) {
            String id = decisionId(answer);
            until("decision " + id + " in the index", () -> a.admin("GET", "/admin/decisions/" + id, "")
                    .statusCode() == 200);
        }
    }

    @Test
    @Order(2)
    void replicaAsConsoleFindsTheCallsMadeThroughB() throws Exception {
        console.signInAs(a.baseUrl(), "operator");
        console.waitFor(ExpectedConditions.titleContains("Overview"));
        console.look("overview-a");

        search(a, Map.of("agent", "a2"));
        assertEquals(Boolean.TRUE, console.js("const boxes = [...document.querySelectorAll("
                + "'form[aria-label=\"Find decisions\"] input')].map(i => i.getBoundingClientRect());"
                + " return boxes.every(x => boxes.every(y => x.bottom <= y.top || y.bottom <= x.top"
                + " || x.top === y.top));"), "the search fields of a row line up, with a hint or without");
        assertEquals("b", replicaOf(a2Allowed), "a2's allowed call, decided on B");
        assertEquals("b", replicaOf(a2Denied));
        assertTrue(browser.findElements(link(a1Denied)).isEmpty(), "only a2's decisions");
        console.look("decisions-a-by-agent");

        search(a, Map.of("reason", "capability_missing"));
        assertEquals("b", replicaOf(a2Denied));
        assertTrue(browser.findElements(link(a2Allowed)).isEmpty(), "only the denial");
        console.look("decisions-a-by-reason");

        search(a, Map.of("decisionId", decisionId(a2Denied)));
        console.waitFor(ExpectedConditions.urlContains("/console/decisions/" + decisionId(a2Denied)));
        assertTrue(browser.getCurrentUrl().startsWith(a.baseUrl()), "still replica A's console");
        assertEquals("b", fact("Replica"));
        assertEquals("denied", fact("Outcome"));
        String arguments = browser.findElement(By.cssSelector("pre[aria-label=Arguments]")).getText();
        assertTrue(arguments.contains(PAYLOAD), "the markup in the logged argument shows as text: " + arguments);
        assertEquals(0L, ((Number) console.js("return document.querySelectorAll('main img, main script').length"))
                .longValue(), "and never as markup");
        console.look("decision-of-b-on-a");
    }

    @Test
    @Order(3)
    void replicaBsConsoleFindsTheCallsMadeThroughAWithTheSameSignIn() throws Exception {
        browser.get(b.baseUrl() + "/console");
        assertTrue(browser.getTitle().contains("Overview"), "B serves the session A started: " + browser.getTitle());
        console.look("overview-b");

        search(b, Map.of("agent", "a1"));
        assertEquals("a", replicaOf(a1Allowed));
        assertEquals("a", replicaOf(a1Denied));
        assertTrue(browser.findElements(link(a2Denied)).isEmpty(), "only a1's decisions");
        console.look("decisions-b-by-agent");

        search(b, Map.of("reason", reason(a1Denied)));
        assertEquals("a", replicaOf(a1Denied));
        // an inline element or a text range has one box per line it takes
        assertEquals(Boolean.TRUE, console.js("const lines = node => { const r = document.createRange();"
                + " r.selectNodeContents(node); return r.getClientRects().length; };"
                + " return [...document.querySelectorAll('table.decisions td.tool bdi')].every(t => t"
                + ".getClientRects().length === 1) && [...document.querySelectorAll('table.decisions td.revision')]"
                + ".every(r => lines(r) === 1)"), "tool names and revisions on one line each");
        assertTrue(browser.findElements(link(a2Denied)).isEmpty(), "only " + reason(a1Denied));
        console.look("decisions-b-by-reason");

        search(b, Map.of("decisionId", decisionId(a1Allowed)));
        console.waitFor(ExpectedConditions.urlContains("/console/decisions/" + decisionId(a1Allowed)));
        assertEquals("a", fact("Replica"));
        assertEquals("allowed", fact("Outcome"));
        console.look("decision-of-a-on-b");
    }

    @Test
    @Order(4)
    void aDecisionOfTheOtherReplicaIsExplainedAndReplayed() throws Exception {
        browser.get(b.baseUrl() + "/console/decisions/" + decisionId(a2Denied));
        browser.findElement(By.linkText("Replay this decision")).click();
        console.waitFor(ExpectedConditions.urlContains("replay=true"));
        List<WebElement> rows = replayRows();
        assertEquals(1, rows.size(), "one revision kept so far");
        assertTrue(rows.get(0).getText().contains("(served)") && rows.get(0).getText().contains("same decision"),
                rows.get(0).getText());
        assertTrue(rows.get(0).getText().contains("capability_missing"), rows.get(0).getText());
        console.look("decision-replayed");
        browser.findElement(By.linkText("Explain this decision")).click();
        console.waitFor(ExpectedConditions.urlContains("explain=true"));
        assertTrue(browser.findElement(By.cssSelector("pre[aria-label=Trace]")).getText().contains("Fail"),
                "the opa eval --explain=fails trace");
        assertTrue(console.main().contains("capability_missing"), console.main());
        console.look("decision-explained");
    }

    @Test
    @Order(5)
    void aHotSwappedRevisionShowsItsMatrixDiffAndChangesTheReplay() throws Exception {
        Path next = a.bundle().resolveSibling("bundle.tar.gz.next");
        Files.copy(swapped.get(), next, StandardCopyOption.REPLACE_EXISTING);
        Files.move(next, a.bundle(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        for (GatewayStack replica : List.of(a, b)) {
            until(SWAPPED + " served by " + replica.baseUrl(), () -> SWAPPED.equals(revision(replica)));
        }

        browser.get(a.baseUrl() + "/console/policy");
        assertEquals(SWAPPED, fact("Revision"));
        WebElement diff = browser.findElement(By.cssSelector("[aria-label='Matrix diff']"));
        assertTrue(diff.getText().contains(firstRevision) && diff.getText().contains(SWAPPED), diff.getText());
        List<String> changed = diff.findElements(By.cssSelector("table.diff tbody tr")).stream()
                .map(WebElement::getText).filter(row -> row.contains(SWAPPED_TOOL)).toList();
        String cell = changed.stream().filter(row -> row.startsWith("outside read-only ")).findFirst()
                .orElseThrow(() -> new AssertionError("the read-only caller's cell is not in the diff: " + changed));
        assertTrue(cell.matches("outside read-only t3_project_list ALLOW.* DENY.*read_only_client.*"), cell);
        String kept = browser.findElement(By.xpath("//table[caption='Newest activation first']")).getText();
        assertTrue(kept.indexOf(SWAPPED) < kept.indexOf(firstRevision) && kept.contains(firstRevision), kept);
        console.look("policy-after-swap");

        browser.get(b.baseUrl() + "/console/decisions/" + decisionId(outsideAllowed) + "?replay=true");
        assertEquals("a", fact("Replica"));
        List<WebElement> rows = replayRows();
        assertEquals(2, rows.size(), "both kept revisions answer");
        String served = rows.get(0).getText();
        assertTrue(served.startsWith(SWAPPED + " (served)") && served.contains("denied")
                && served.contains("read_only_client") && served.endsWith("would change"), served);
        String before = rows.get(1).getText();
        assertTrue(before.startsWith(firstRevision.substring(0, 12) + "… (decided it)") && before.contains("allowed")
                && before.endsWith("same decision"), before);
        console.look("decision-replayed-after-swap");
    }

    @Test
    @Order(6)
    void aNoticeDeliveredByTheHolderIsShownOnTheOtherReplica() throws Exception {
        a.settings("a-notices", """
                {"browserAccess":false,"project":{"enabled":true,"projectServiceProjectId":"ps-demo"},
                 "wiki":{"read":true,"write":false}}""");
        var profile = a.admin("PUT", "/admin/notices/agents/a-notices", """
                {"projectClientId":"c-replicas","runtimeMode":"full-access","interactionMode":"plan",
                 "limitRuntimeMode":"auto","limitInteractionMode":"default"}""");
        assertEquals(200, profile.statusCode(), profile.body());
        String run = "run-" + UUID.randomUUID();
        var assigned = a.service("POST", "/project/v1/admin/assignments", JSON.writeValueAsString(Map.of(
                "clientId", "c-replicas", "agentId", "a-notices", "agentName", PAYLOAD, "projectId", "ps-demo",
                "projectName", "Demo", "runId", run, "title", PAYLOAD)), Optional.empty());
        assertTrue(assigned.statusCode() < 300, assigned.body());
        until("the notice delivered", () -> JSON.readTree(a.admin("GET",
                "/admin/notices/receipts?agent=a-notices&state=delivered", "").body()).path("notices").toString()
                .contains(run));
        String holder = JSON.readTree(a.admin("GET", "/health", "").body()).at("/notices/hold/holder").asText();
        assertTrue(List.of("a", "b").contains(holder), holder);
        GatewayStack other = holder.equals("a") ? b : a;

        browser.get(other.baseUrl() + "/console/notices");
        assertEquals(holder, fact("Streams held by").replaceFirst(",.*", ""), "the holder, not this replica");
        new Select(browser.findElement(By.id("f-state"))).selectByValue("delivered");
        console.fill("agent", "a-notices");
        console.submit("form[action='/console/notices/find'] button[type=submit]");
        console.waitFor(ExpectedConditions.urlContains("state=delivered"));
        String notices = browser.findElement(By.cssSelector("[aria-label=Notices]")).getText();
        assertTrue(notices.contains(run) && notices.contains("delivered"), notices);
        assertTrue(browser.findElement(By.cssSelector("[aria-label='Aggregates per thread']")).getText()
                .contains("(current)"), "the thread the aggregate went to");
        console.look("notices-on-the-other-replica");
    }

    // --- the client ------------------------------------------------------------------------------------------

    /**
     * Tool calls ({@code tool, arguments JSON, …}) through {@code replica}'s /mcp, one after another on one
     * connection of the Node MCP client (2026-07-28): their one-line answers, in order.
     */
    private static List<JsonNode> calls(GatewayStack replica, String token, String... toolsAndArguments)
            throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "call.mjs", "modern"));
        command.addAll(List.of(toolsAndArguments));
        NodeClients.Run run = NodeClients.run(command, Map.of("MCP_URL", replica.mcpUrl(), "TOKEN", token), 120);
        assertEquals(0, run.exitCode(), run.output());
        List<JsonNode> answers = new ArrayList<>();
        for (String line : run.output().strip().split("\n")) {
            if (line.startsWith("{")) {
                answers.add(JSON.readTree(line));
            }
        }
        assertEquals(toolsAndArguments.length / 2, answers.size(), run.output());
        for (JsonNode answer : answers) {
            assertTrue(decisionId(answer).matches("[0-9a-f-]{36}"), "the client got the decision id: " + answer);
        }
        return answers;
    }

    private static String decisionId(JsonNode answer) {
        return answer.path("decisionId").asText();
    }

    private static String reason(JsonNode answer) {
        return answer.path("codes").path(0).asText();
    }

    // --- the pages -------------------------------------------------------------------------------------------

    /** The decisions search on {@code replica}'s console with {@code fields} filled, the others empty. */
    private static void search(GatewayStack replica, Map<String, String> fields) {
        browser.get(replica.baseUrl() + "/console/decisions");
        fields.forEach(console::fill);
        console.submit("form[action='/console/decisions/find'] button[type=submit]");
        if (!fields.containsKey("decisionId")) {
            console.waitFor(ExpectedConditions.urlContains(fields.keySet().iterator().next() + "="));
        }
    }

    private static By link(JsonNode answer) {
        return By.cssSelector("a[href='/console/decisions/" + decisionId(answer) + "']");
    }

    /** The Replica column of the decision's row in the results shown. */
    private static String replicaOf(JsonNode answer) {
        List<WebElement> cells = browser.findElement(link(answer)).findElement(By.xpath("ancestor::tr"))
                .findElements(By.tagName("td"));
        return cells.get(cells.size() - 1).getText();
    }

    /** The value the page's facts list gives for {@code term}. */
    private static String fact(String term) {
        return browser.findElement(By.xpath("//dl[@class='facts']/dt[.='" + term + "']/following-sibling::dd[1]"))
                .getText();
    }

    private static List<WebElement> replayRows() {
        return browser.findElements(By.xpath("//table[starts-with(caption, 'The logged input decided again')]"
                + "/tbody/tr"));
    }

    // --- the replicas ----------------------------------------------------------------------------------------

    private static Map<String, String> env(String jdbc, Path password, String replica) {
        return Map.of("GATEHOUSE_DATABASE_URL", jdbc, "GATEHOUSE_DATABASE_USER", "postgres",
                "GATEHOUSE_DATABASE_PASSWORD_FILE", password.toString(),
                "GATEHOUSE_NOTICES_ENABLED", "true", "GATEHOUSE_NOTICES_CLIENT_ID", "c-replicas",
                "GATEHOUSE_NOTICES_HOST_PROJECT", "demo", "GATEHOUSE_REPLICA_NAME", replica);
    }

    private static String revision(GatewayStack replica) throws Exception {
        return JSON.readTree(replica.admin("GET", "/health", "").body()).at("/pdp/bundleRevision").asText();
    }

    /**
     * The repository's policies with {@code t3_project_list} made a write of the orchestration capability, signed as
     * {@code make bundle} signs (a later {@code iat}); the smoke cases of that tool, which expect the old row, dropped.
     */
    private static Path buildSwapped(Path dir) {
        try {
            Path policies = SignedBundles.policiesCopy(Files.createDirectories(dir));
            Path table = policies.resolve("gatehouse/access_table/data.json");
            ObjectNode rows = (ObjectNode) JSON.readTree(table.toFile());
            ((ObjectNode) rows.get(SWAPPED_TOOL)).put("class", "write").put("capability", "orchestration");
            Files.writeString(table, JSON.writeValueAsString(rows));
            Path smoke = policies.resolve("gatehouse/smoke/data.json");
            ObjectNode cases = (ObjectNode) JSON.readTree(smoke.toFile());
            ArrayNode kept = JSON.createArrayNode();
            cases.get("cases").forEach(c -> {
                if (!SWAPPED_TOOL.equals(c.at("/input/tool").asText())) {
                    kept.add(c);
                }
            });
            cases.set("cases", kept);
            Files.writeString(smoke, JSON.writeValueAsString(cases));
            return SignedBundles.build(policies, dir.resolve("bundle.tar.gz"), true, SWAPPED,
                    TestBundle.publicKey().resolveSibling("private.pem"),
                    "{\"iat\": " + Instant.now().getEpochSecond() + "}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void until(String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.holds()) {
            assertTrue(System.nanoTime() < deadline, what + " did not happen within 60 s");
            Thread.sleep(100);
        }
    }
}
