package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thread shells from the watch, end to end (docs/domain.md §1): the packaged gateway in front of the packaged
 * local-services, a real thread session and plain MCP calls. Once the gateway's watch has applied a change the host
 * reported (its cursor in {@code /health}), the next call is decided on the new shell, and answered from the watch
 * without reading the host; a restart of local-services with its data is a cut the watch resumes from, and one with a
 * new data directory (a new history of thread events) makes it list again. The gateway runs with a
 * {@code max-staleness} of 5 s, so that a slow machine does not turn the watch's answers into reads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShellWatchIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String RECONNECTED = "host shell watch connected again";

    private GatewayStack stack;
    private McpHttp mcp;
    private String token;
    private long id;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        Files.createDirectories(work.resolve("stack"));
        stack = GatewayStack.start(work.resolve("stack"), Map.of("GATEHOUSE_HOST_MAX_STALENESS", "5s"));
        stack.settings("a1", "{\"wiki\":{\"read\":true,\"write\":true}}");
        token = stack.attach("a1", "t1", "pi-1");
        mcp = new McpHttp(HTTP, stack.mcpUrl(), Duration.ofSeconds(30));
    }

    @AfterAll
    void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void aChangeTheHostReportedDecidesTheNextCallFromTheWatch() throws Exception {
        assertEquals(List.of(), reasons(call("wiki_write", "{\"path\":\"watch.md\",\"content\":\"x\"}")),
                "live and full-access: allowed");
        assertEquals(List.of(), reasons(call("wiki_read", "{\"path\":\"watch.md\"}")));
        double readsBefore = shells("host");
        double watchedBefore = shells("watch");

        String narrowed = change("t1", "{\"runtimeMode\":\"approval-required\",\"interactionMode\":\"plan\"}");
        awaitWatch(narrowed);
        assertEquals(List.of("runtime_mode_escalation_denied"), reasons(call("t3_thread_launch",
                "{\"projectId\":\"demo\",\"prompt\":\"go\",\"runtimeMode\":\"full-access\"}")),
                "the narrowed modes decide the next call");

        HttpResponse<String> interrupted = stack.service("POST", "/host/v1/threads/t1/interrupt", "{}",
                Optional.of("a1"));
        assertEquals(200, interrupted.statusCode(), interrupted.body());
        awaitWatch(head());
        assertEquals(List.of("parent_not_active"),
                reasons(call("wiki_write", "{\"path\":\"watch.md\",\"content\":\"y\"}")),
                "the ended run decides the next call");

        assertEquals(readsBefore, shells("host"), "both shells came from the watch, not from a read");
        assertEquals(watchedBefore + 2, shells("watch"));
    }

    @Test
    @Order(2)
    void aHostRestartIsACutTheWatchResumesFromAndANewHistoryIsListedAgain() throws Exception {
        JsonNode before = watch();
        long relists = before.path("relists").asLong();

        int reconnects = logged(RECONNECTED);
        stack.restartLocalServices(false);
        Instant deadline = Instant.now().plus(PATIENCE);
        while (logged(RECONNECTED) == reconnects) {
            assertTrue(Instant.now().isBefore(deadline), "the watch never reconnected: " + watch());
            Thread.sleep(50);
        }
        String archived = change("t1", "{\"archived\":true}");
        awaitWatch(archived);
        assertEquals(relists, watch().path("relists").asLong(), "same history: resumed from its cursor");
        assertEquals(List.of("parent_not_active"), reasons(call("wiki_write", "{\"path\":\"watch.md\",\"content\":"
                + "\"z\"}")));

        stack.restartLocalServices(true);
        String fresh = head();
        assertNotEquals(history(archived), history(fresh), "a new data directory is a new history");
        awaitWatch(fresh);
        assertEquals(relists + 1, watch().path("relists").asLong(), "the old cursor is gone: listed again");
        assertEquals(List.of(), reasons(call("wiki_read", "{\"path\":\"page.md\"}")),
                "the new host's seeded t1 is live again");
        assertEquals(List.of(), reasons(call("wiki_write", "{\"path\":\"watch.md\",\"content\":\"w\"}")));
    }

    /** Reason codes of a tool call's answer; empty when it was allowed (and served). */
    private List<String> reasons(HttpResponse<String> response) throws Exception {
        assertEquals(200, response.statusCode(), response.body());
        JsonNode result = McpHttp.firstJson(response.body()).path("result");
        List<String> codes = new ArrayList<>();
        result.path("structuredContent").path("reasons").forEach(reason -> codes.add(reason.path("code").asText()));
        assertEquals(!codes.isEmpty(), result.path("isError").asBoolean(), response.body());
        return codes;
    }

    private HttpResponse<String> call(String tool, String arguments) throws Exception {
        return mcp.modernCall(token, ++id, tool, arguments);
    }

    /** Changes a thread on the host as its own user would; returns the feed cursor after the change. */
    private String change(String threadId, String body) throws Exception {
        HttpResponse<String> response = stack.service("PATCH", "/host/v1/admin/threads/" + threadId, body,
                Optional.empty());
        assertEquals(200, response.statusCode(), response.body());
        return McpHttp.JSON.readTree(response.body()).path("cursor").asText();
    }

    /** The host's present cursor (its thread list's). */
    private String head() throws Exception {
        HttpResponse<String> response = stack.service("GET", "/host/v1/threads", "", Optional.empty());
        return McpHttp.JSON.readTree(response.body()).path("cursor").asText();
    }

    /** Waits until the gateway's watch stands at {@code cursor} and answers from it. */
    private void awaitWatch(String cursor) throws Exception {
        Instant deadline = Instant.now().plus(PATIENCE);
        JsonNode watch = watch();
        while (!cursor.equals(watch.path("cursor").asText()) || !"watching".equals(watch.path("state").asText())) {
            assertTrue(Instant.now().isBefore(deadline), "the watch never reached " + cursor + ": " + watch);
            Thread.sleep(20);
            watch = watch();
        }
    }

    private JsonNode watch() throws Exception {
        HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/health"))
                .build(), HttpResponse.BodyHandlers.ofString());
        return McpHttp.JSON.readTree(health.body()).path("hostWatch");
    }

    /** How often the gateway's log holds {@code line}. */
    private int logged(String line) throws Exception {
        return Files.readString(stack.workDir.resolve("gateway.log")).split(Pattern.quote(line), -1).length - 1;
    }

    /** The gateway's count of thread shells answered from {@code source}. */
    private double shells(String source) throws Exception {
        String scrape = HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("gatehouse_pip_thread_shells_total{") && line.contains("source=\"" + source + "\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    private static String history(String cursor) {
        return cursor.substring(0, cursor.lastIndexOf(':'));
    }
}
