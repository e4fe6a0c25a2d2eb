package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Project Work notices through the packaged processes (docs/domain.md §9): local-services' Project Service emits
 * notices when work is assigned, the gateway consumes the stream, creates the agent's thread on the host at the
 * capped modes with one aggregate, gathers the notices that arrive during the turn, and after the host's run-ended
 * event sends exactly one more aggregate; a gateway restart loses and repeats nothing.
 */
class NoticeEndToEndIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertTrue(response.statusCode() < 300, response.statusCode() + " " + response.body());
        return JSON.readTree(response.body());
    }

    private static JsonNode until(String what, GatewayStack stack, ThrowingSupplier read, Predicate<JsonNode> done)
            throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = read.get();
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(what + " did not happen; last " + last + "\n" + stack.log("gateway"));
    }

    @FunctionalInterface
    private interface ThrowingSupplier {
        JsonNode get() throws Exception;
    }

    private static void assign(GatewayStack stack, String runId) throws Exception {
        json(stack.service("POST", "/project/v1/admin/assignments", JSON.writeValueAsString(Map.of(
                "clientId", "c-e2e", "agentId", "a1", "agentName", "Agent one", "projectId", "ps-demo",
                "projectName", "Demo", "runId", runId, "title", "Task " + runId)), Optional.empty()));
    }

    @Test
    void aNoticeCreatesTheThreadAndATurnGetsOneAggregate(@TempDir Path work) throws Exception {
        try (GatewayStack stack = GatewayStack.start(work, Map.of("GATEHOUSE_NOTICES_ENABLED", "true",
                "GATEHOUSE_NOTICES_CLIENT_ID", "c-e2e", "GATEHOUSE_NOTICES_HOST_PROJECT", "demo"))) {
            stack.settings("a1", """
                    {"browserAccess":false,"project":{"enabled":true,"projectServiceProjectId":"ps-demo"},
                     "wiki":{"read":true,"write":false}}""");
            json(stack.admin("PUT", "/admin/notices/agents/a1", """
                    {"projectClientId":"c-e2e","runtimeMode":"full-access","interactionMode":"plan",
                     "limitRuntimeMode":"auto","limitInteractionMode":"default"}"""));
            ThrowingSupplier counts = () -> json(stack.admin("GET", "/admin/notices", "")).path("counts");
            ThrowingSupplier threads = () -> json(stack.service("GET",
                    "/host/v1/threads?agentId=a1&workProjectId=ps-demo", "", Optional.empty())).path("threads");

            assign(stack, "run-e2e-1");
            until("the first delivery", stack, counts, c -> c.path("delivered").asInt() == 1);
            JsonNode thread = until("the thread", stack, threads, t -> t.size() == 1).get(0);
            assertEquals("auto", thread.path("runtimeMode").asText(), "full-access capped by the limit");
            assertEquals("plan", thread.path("interactionMode").asText());
            String threadId = thread.path("threadId").asText();
            ThrowingSupplier messages = () -> json(stack.service("GET", "/host/v1/threads/" + threadId, "",
                    Optional.empty())).path("messages");
            assertEquals(1, messages.get().size());
            assertTrue(messages.get().get(0).path("text").asText().contains("Task run-e2e-1"));

            for (int i = 2; i <= 4; i++) {
                assign(stack, "run-e2e-" + i);
            }
            until("three notices gathered during the turn", stack, counts, c -> c.path("coalesced").asInt() == 3);
            assertEquals(1, messages.get().size(), "nothing sent while the turn runs");

            json(stack.service("POST", "/host/v1/threads/" + threadId + "/interrupt", "{}", Optional.of("a1")));
            until("the aggregate after the turn", stack, counts, c -> c.path("delivered").asInt() == 4);
            JsonNode after = messages.get();
            assertEquals(2, after.size(), "exactly one aggregate for the three notices");
            for (int i = 1; i <= 4; i++) {
                assertTrue(after.get(1).path("text").asText().contains("Task run-e2e-" + i), after.toString());
            }

            stack.restartGateway();
            json(stack.service("POST", "/host/v1/threads/" + threadId + "/interrupt", "{}", Optional.of("a1")));
            assign(stack, "run-e2e-5");
            until("delivery after the restart", stack, counts, c -> c.path("delivered").asInt() == 5);
            assertEquals(3, messages.get().size(), "one more aggregate, nothing repeated");
            assertEquals(1, threads.get().size(), "the same current thread after the restart");
            JsonNode status = json(stack.admin("GET", "/admin/notices", ""));
            assertEquals("ok", status.path("streams").path("project").path("state").asText(), status.toString());
            assertEquals(0, status.path("counts").path("pending").asInt());
        }
    }
}
