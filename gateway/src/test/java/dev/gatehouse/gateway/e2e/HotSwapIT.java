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
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The served revision is the whole truth (docs/design.md, "One served revision"): against the packaged gateway, a
 * policy change in a copy of {@code policies/} and {@code schemas/}, signed like {@code make bundle} signs it and
 * written over the watched bundle, is decided and enforced from the next call on, with no restart: the rows the
 * gate looks up, the target shells it sends, the schemas it checks and publishes in tools/list, and
 * {@code GET /admin/access-table}. A revision this gateway cannot enforce is refused and the old one keeps serving.
 * Calls go through the MCP Java SDK's client (handshake era), so tools/list is the SDK's published list. Each
 * scenario is one revision: the repository's sources with one change (numbered as in the issue).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HotSwapIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Path work;
    private GatewayStack stack;
    private String a1;
    private String o1;
    private String o3;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        work = dir;
        // o3's token names a ceiling the served policy does not know until scenario (4) renames one to it.
        stack = GatewayStack.startWatching(Files.createDirectories(work.resolve("stack")), "o3=reviewer");
        stack.settings("a1", "{\"browserAccess\":false,\"project\":{\"enabled\":false},"
                + "\"wiki\":{\"read\":true,\"write\":true}}");
        stack.registerOutsideAgent("o1", "oa-o1", "{\"wiki\":{\"read\":true,\"write\":false}}");
        a1 = stack.attach("a1", "t1", "pi-1");
        o1 = stack.outsideAgentToken("o1");
        stack.registerOutsideAgent("o3", "oa-o3", "{\"wiki\":{\"read\":true,\"write\":false}}");
        o3 = stack.outsideAgentToken("o3");
    }

    @AfterAll
    void stop() throws Exception {
        stack.close();
    }

    /** (1) A row gains a thread field: the gate looks the named thread up and the policy judges it. */
    @Test
    void aNewThreadFieldIsLookedUpAndJudged() throws Exception {
        assertFalse(denied(call(a1, "t3_thread_read", Map.of("threadId", "t-none"))),
                "a read of a thread that does not exist reaches the host");
        serve("thread-field", (policies, schemas) -> row(policies, "t3_thread_read", row -> {
            row.put("class", "write_threads");
            row.put("capability", "orchestration");
            row.putArray("threadFields").add("threadId");
        }));
        assertFalse(denied(call(a1, "t3_thread_read", Map.of("threadId", "t1"))), "the caller's own live thread");
        JsonNode record = lastCallRecord();
        assertEquals("found", record.at("/input/targets/threads/t1/lookup").asText(), record.toString());
        assertEquals("thread-field", record.at("/bundles/gatehouse/revision").asText());
        assertEquals(List.of("thread_not_found"), reasons(call(a1, "t3_thread_read", Map.of("threadId", "t-none"))));
        assertFalse(listed(o1).contains("t3_thread_read"), "a read-only client no longer sees a write");
        assertEquals("write_threads", accessTable().at("/t3_thread_read/class").asText());
    }

    /** (2) A second confined path field, with its schema property: confined like the first, and published. */
    @Test
    void aSecondConfinedPathIsConfinedAndPublished() throws Exception {
        assertEquals(List.of("schema"), reasons(call(a1, "wiki_read", Map.of("path", "p.md", "alsoPath", "q.md"))));
        serve("second-path", (policies, schemas) -> {
            row(policies, "wiki_read", row -> ((ObjectNode) row.get("paths")).putObject("alsoPath")
                    .put("names", "page"));
            schema(schemas, "wiki_read", schema -> ((ObjectNode) schema.get("properties")).putObject("alsoPath")
                    .put("type", "string"));
        });
        assertFalse(denied(call(a1, "wiki_read", Map.of("path", "p.md", "alsoPath", "q.md"))));
        assertEquals("agents/a1/q.md", lastCallRecord().at("/result/obligations/wikiPaths/alsoPath").asText());
        List<String> escape = reasons(call(a1, "wiki_read", Map.of("path", "p.md", "alsoPath", "../../a2/x.md")));
        assertTrue(escape.contains("path_escape") || escape.contains("path_invalid"), escape.toString());
        assertTrue(inputSchema(a1, "wiki_read").at("/properties/alsoPath").isObject(), "tools/list publishes it");
    }

    /** (3) A row's class and capability change: who may call it and who sees it follow at once. */
    @Test
    void aRowsClassAndCapabilityChange() throws Exception {
        assertFalse(denied(call(o1, "t3_project_list", Map.of())));
        assertTrue(listed(o1).contains("t3_project_list"));
        serve("class-and-capability", (policies, schemas) -> row(policies, "t3_project_list", row -> {
            row.put("class", "write");
            row.put("capability", "orchestration");
        }));
        assertTrue(reasons(call(o1, "t3_project_list", Map.of())).contains("read_only_client"));
        assertFalse(listed(o1).contains("t3_project_list"));
        assertTrue(listed(a1).contains("t3_project_list"));
        assertEquals("orchestration", accessTable().at("/t3_project_list/capability").asText());
    }

    /**
     * (4) A ceiling is renamed in the policy data, and the authorization server approves tokens under the new name:
     * the caller whose token carries it is judged by it, and one carrying the old name no longer is.
     */
    @Test
    void aCeilingIsRenamed() throws Exception {
        assertTrue(reasons(call(o3, "t3_project_list", Map.of())).contains("ceiling_unknown"));
        assertEquals(Set.of(), listed(o3));
        serve("renamed-ceiling", (policies, schemas) -> {
            Path modes = policies.resolve("gatehouse/modes/data.json");
            ObjectNode data = (ObjectNode) readJson(modes);
            ObjectNode ceilings = (ObjectNode) data.get("ceilings");
            ceilings.set("reviewer", ceilings.remove("read-only"));
            Files.writeString(modes, JSON.writeValueAsString(data));
        }, smoke -> !"read-only".equals(smoke.at("/input/caller/ceiling").asText()));
        assertFalse(denied(call(o3, "t3_project_list", Map.of())), "a read under the renamed ceiling");
        assertTrue(reasons(call(o3, "wiki_write", Map.of("path", "p.md", "content", "x", "baseRevision", "r0")))
                .contains("read_only_client"), "the renamed ceiling is still read-only");
        assertTrue(listed(o3).contains("t3_project_list"));
        assertTrue(reasons(call(o1, "t3_project_list", Map.of())).contains("ceiling_unknown"));
    }

    /** (5) A field becomes required: the next call without it is refused and the published schema says so. */
    @Test
    void aFieldBecomesRequired() throws Exception {
        assertFalse(denied(call(a1, "wiki_search", Map.of("query", "page"))));
        serve("required-path", (policies, schemas) -> schema(schemas, "wiki_search",
                schema -> ((ArrayNode) schema.get("required")).add("path")));
        assertEquals(List.of("schema"), reasons(call(a1, "wiki_search", Map.of("query", "page"))));
        assertFalse(denied(call(a1, "wiki_search", Map.of("query", "page", "path", "."))));
        assertTrue(inputSchema(a1, "wiki_search").get("required").toString().contains("\"path\""));
    }

    /** A revision that drops a served tool's row is refused; the serving one keeps serving and says why. */
    @Test
    void aRevisionWithoutAServedToolsRowIsRefused() throws Exception {
        String before = health().at("/pdp/bundleRevision").asText();
        Path refused = build("drops-wiki-delete", (policies, schemas) -> {
            ObjectNode table = (ObjectNode) readJson(table(policies));
            table.remove("wiki_delete");
            Files.writeString(table(policies), JSON.writeValueAsString(table));
        });
        replaceBundle(refused);
        Instant deadline = Instant.now().plusSeconds(90);
        while (!health().at("/pdp/lastRefusal").toString().contains("drops-wiki-delete")) {
            assertTrue(Instant.now().isBefore(deadline), "no refusal reported: " + health());
            Thread.sleep(200);
        }
        String refusal = health().at("/pdp/lastRefusal").toString();
        assertTrue(refusal.contains("handler without access-table row: wiki_delete"), refusal);
        assertEquals(before, health().at("/pdp/bundleRevision").asText());
        assertTrue(accessTable().has("wiki_delete"));
        assertTrue(listed(a1).contains("wiki_delete"));
    }

    // --- revisions ------------------------------------------------------------------------------------------

    /** One edit of a copy of policies/ (first) and schemas/tools/ (second). */
    private interface Edit {
        void apply(Path policies, Path schemas) throws IOException;
    }

    /** Builds a revision from the repository's sources changed by {@code edit}, and waits until it serves. */
    private void serve(String revision, Edit edit) throws Exception {
        serve(revision, edit, smoke -> true);
    }

    /** {@link #serve(String, Edit)}, keeping only the smoke cases {@code keep} accepts besides the usual drop. */
    private void serve(String revision, Edit edit, Predicate<JsonNode> keep) throws Exception {
        replaceBundle(build(revision, edit, keep));
        Instant deadline = Instant.now().plusSeconds(90);
        while (!revision.equals(health().at("/pdp/bundleRevision").asText())) {
            assertTrue(Instant.now().isBefore(deadline), "revision " + revision + " not activated: " + health());
            Thread.sleep(200);
        }
    }

    private Path build(String revision, Edit edit) throws Exception {
        return build(revision, edit, smoke -> true);
    }

    private Path build(String revision, Edit edit, Predicate<JsonNode> keep) throws Exception {
        Path source = Files.createDirectories(work.resolve(revision));
        Path policies = SignedBundles.policiesCopy(source);
        Path schemas = Files.createDirectories(source.resolve("schemas"));
        try (Stream<Path> files = Files.list(TestBundle.repo().resolve("schemas/tools"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, schemas.resolve(file.getFileName()));
            }
        }
        edit.apply(policies, schemas);
        dropSmokeCases(policies, keep);
        return SignedBundles.build(policies, schemas, work.resolve(revision + ".tar.gz"), true, revision,
                TestBundle.publicKey().resolveSibling("private.pem"),
                "{\"iat\": " + Instant.now().getEpochSecond() + "}");
    }

    /**
     * Smoke cases of tools this revision changes, and those {@code keep} refuses, expect the old rules; a real change
     * updates them too.
     */
    private static void dropSmokeCases(Path policies, Predicate<JsonNode> keep) throws IOException {
        JsonNode original = readJson(TestBundle.policies().resolve("gatehouse/access_table/data.json"));
        JsonNode table = readJson(table(policies));
        Path smoke = policies.resolve("gatehouse/smoke/data.json");
        ObjectNode cases = (ObjectNode) readJson(smoke);
        ArrayNode kept = JSON.createArrayNode();
        for (JsonNode c : cases.get("cases")) {
            String tool = c.at("/input/tool").asText();
            if ((!original.has(tool) || original.get(tool).equals(table.get(tool))) && keep.test(c)) {
                kept.add(c);
            }
        }
        cases.set("cases", kept);
        Files.writeString(smoke, JSON.writeValueAsString(cases));
    }

    private void replaceBundle(Path built) throws IOException {
        Path next = stack.bundle().resolveSibling("bundle.tar.gz.next");
        Files.copy(built, next, StandardCopyOption.REPLACE_EXISTING);
        Files.move(next, stack.bundle(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path table(Path policies) {
        return policies.resolve("gatehouse/access_table/data.json");
    }

    private static void row(Path policies, String tool, Consumer<ObjectNode> change) throws IOException {
        ObjectNode table = (ObjectNode) readJson(table(policies));
        change.accept((ObjectNode) table.get(tool));
        Files.writeString(table(policies), JSON.writeValueAsString(table));
    }

    private static void schema(Path schemas, String tool, Consumer<ObjectNode> change) throws IOException {
        Path file = schemas.resolve(tool + ".input.json");
        ObjectNode schema = (ObjectNode) readJson(file);
        change.accept(schema);
        Files.writeString(file, JSON.writeValueAsString(schema));
    }

    private static JsonNode readJson(Path file) throws IOException {
        return JSON.readTree(file.toFile());
    }

    // --- what the gateway serves ----------------------------------------------------------------------------

    private JsonNode health() throws Exception {
        return JSON.readTree(stack.admin("GET", "/health", "").body());
    }

    private JsonNode accessTable() throws Exception {
        return JSON.readTree(stack.admin("GET", "/admin/access-table", "").body()).get("accessTable");
    }

    private JsonNode lastCallRecord() throws IOException {
        List<String> lines = Files.readAllLines(stack.workDir.resolve("decisions.jsonl"));
        for (int i = lines.size() - 1; i >= 0; i--) {
            JsonNode record = JSON.readTree(lines.get(i));
            if ("tools/call".equals(record.path("method").asText())) {
                return record;
            }
        }
        throw new AssertionError("no tools/call record");
    }

    private McpSyncClient client(String token) {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(stack.baseUrl())
                .endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                .build()).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    private McpSchema.CallToolResult call(String token, String tool, Map<String, Object> arguments) {
        try (McpSyncClient client = client(token)) {
            return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
        }
    }

    private Set<String> listed(String token) {
        try (McpSyncClient client = client(token)) {
            Set<String> names = new TreeSet<>();
            client.listTools().tools().forEach(tool -> names.add(tool.name()));
            return names;
        }
    }

    private JsonNode inputSchema(String token, String tool) {
        try (McpSyncClient client = client(token)) {
            return JSON.valueToTree(client.listTools().tools().stream().filter(t -> t.name().equals(tool))
                    .findFirst().orElseThrow().inputSchema());
        }
    }

    private static boolean denied(McpSchema.CallToolResult result) {
        return Boolean.TRUE.equals(result.isError())
                && "denied".equals(JSON.valueToTree(result.structuredContent()).path("kind").asText());
    }

    private static List<String> reasons(McpSchema.CallToolResult result) {
        assertTrue(denied(result), () -> "not denied: " + result.structuredContent());
        List<String> codes = new ArrayList<>();
        JSON.valueToTree(result.structuredContent()).path("reasons").forEach(r -> codes.add(r.path("code").asText()));
        return codes;
    }
}
