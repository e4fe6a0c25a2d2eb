package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Project Work notices on two gateway replicas (separate processes, one PostgreSQL, one local-services), both with
 * the notice consumer enabled: exactly one holds the streams and both name it in {@code /health}; the holder is
 * killed with SIGKILL while notices keep arriving and the agent's turns keep ending; the other replica takes the
 * streams over, and in the end every notice is delivered and ACKed exactly once: each notice in one aggregate, each
 * aggregate once in the thread, none left open. The takeover time (kill to the survivor holding the streams) is
 * printed. Run alone: {@code mvn -B -ntp -pl gateway -am verify -Dit.test=NoticeReplicasIT -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}.
 */
class NoticeReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final String CLIENT = "c-replicas";
    private static final String PROJECT = "ps-demo";

    @Test
    void theStreamsMoveToTheOtherReplicaWhenTheHolderIsKilledAndNothingIsLostOrDeliveredTwice(@TempDir Path work)
            throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().setDataDirectory(work.resolve("pg"))
                .setCleanDataDirectory(true).setServerConfig("listen_addresses", "127.0.0.1").start();
        String jdbc = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/gatehouse";
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement create = connection.createStatement()) {
            create.execute("CREATE DATABASE gatehouse");
        }
        Path password = work.resolve("db-password");
        Files.writeString(password, "unused-with-trust-auth\n");
        Files.createDirectories(work.resolve("a"));
        Files.createDirectories(work.resolve("b"));
        ExecutorService background = Executors.newSingleThreadExecutor();
        AtomicBoolean endingTurns = new AtomicBoolean(true);
        long starting = System.nanoTime();
        try (GatewayStack a = GatewayStack.start(work.resolve("a"), env(jdbc, password, "a"));
                GatewayStack b = GatewayStack.replicaOf(a, work.resolve("b"), env(jdbc, password, "b"))) {
            System.out.printf("notice replicas: both replicas up after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - starting));
            a.settings("a1", """
                    {"browserAccess":false,"project":{"enabled":true,"projectServiceProjectId":"ps-demo"},
                     "wiki":{"read":true,"write":false}}""");
            json(a.admin("PUT", "/admin/notices/agents/a1", """
                    {"projectClientId":"c-replicas","runtimeMode":"full-access","interactionMode":"plan",
                     "limitRuntimeMode":"auto","limitInteractionMode":"default"}"""));

            // Exactly one holds the streams, and both replicas name it.
            String holder = until("one replica holding the streams", () -> hold(a).path("holder").asText(""),
                    name -> !name.isEmpty());
            until("both replicas naming " + holder, () -> hold(b).path("holder").asText(""), holder::equals);
            assertTrue(hold(a).path("holding").asBoolean() != hold(b).path("holding").asBoolean(), "exactly one");
            GatewayStack holding = holder.equals("a") ? a : b;
            GatewayStack survivor = holding == a ? b : a;
            assertEquals(holder.equals("a") ? "b" : "a", hold(survivor).path("replica").asText());

            int total = 0;
            for (int i = 1; i <= 4; i++) {
                assign(a, "run-" + ++total);
            }
            until("the first deliveries", () -> counts(survivor).path("delivered").asInt(), n -> n >= 1);
            // The agent's turns keep ending, so each gathered batch goes out as the next aggregate.
            Future<?> turns = background.submit(() -> endTurns(a, endingTurns));

            for (int i = 1; i <= 4; i++) {
                assign(a, "run-" + ++total);
            }
            long killedAt = System.nanoTime();
            holding.killGateway();
            for (int i = 1; i <= 4; i++) {
                assign(a, "run-" + ++total); // notices keep arriving while nobody holds the streams
            }
            until("the survivor holding the streams", () -> hold(survivor).path("holding").asBoolean(), h -> h);
            long takeoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            System.out.printf("notice streams taken over %d ms after kill -9 of replica %s%n", takeoverMillis, holder);
            for (int i = 1; i <= 4; i++) {
                assign(a, "run-" + ++total);
            }
            int assigned = total;
            long delivering = System.nanoTime();
            until("every notice delivered", () -> counts(survivor), c -> c.path("delivered").asInt() == assigned);
            if (System.nanoTime() - delivering > TimeUnit.SECONDS.toNanos(20)) {
                System.out.println("notice replicas: slow deliveries; the survivor's log ends:\n"
                        + survivor.log("gateway"));
            }
            endingTurns.set(false);
            turns.get(30, TimeUnit.SECONDS);

            try (Connection db = DriverManager.getConnection(jdbc, "postgres", "")) {
                // The ACKs follow the committed final states.
                until("every notice ACKed", () -> rows(db, "SELECT count(*) || ' ' || state || ' ' || bool_and(acked)"
                        + " FROM notice_receipt GROUP BY state"), List.of(assigned + " delivered true")::equals);
                List<String> sent = rows(db, "SELECT aggregate_id FROM notice_aggregate WHERE state = 'sent'");
                List<String> inThreads = new ArrayList<>();
                for (JsonNode thread : threads(a)) {
                    inThreads.addAll(JSON.convertValue(json(a.service("GET", "/host/v1/threads/"
                            + thread.path("threadId").asText() + "/aggregates", "", Optional.empty()))
                            .path("aggregateIds"), List.class));
                }
                assertEquals(new HashSet<>(inThreads).size(), inThreads.size(), "no aggregate twice: " + inThreads);
                assertEquals(Set.copyOf(sent), Set.copyOf(inThreads), "each aggregate sent is in the thread once");
                assertEquals(List.of("0"), rows(db, "SELECT count(*) FROM notice_aggregate WHERE state = 'sending'"));
                assertEquals(List.of("0"), rows(db, "SELECT count(*) FROM notice_receipt r WHERE NOT EXISTS"
                        + " (SELECT 1 FROM notice_aggregate g WHERE g.aggregate_id = r.aggregate_id"
                        + " AND g.state = 'sent')"), "each notice in a sent aggregate");
            }
        } finally {
            endingTurns.set(false);
            background.shutdownNow();
            postgres.close();
        }
    }

    private static Map<String, String> env(String jdbc, Path password, String replica) {
        return Map.of("GATEHOUSE_DATABASE_URL", jdbc, "GATEHOUSE_DATABASE_USER", "postgres",
                "GATEHOUSE_DATABASE_PASSWORD_FILE", password.toString(),
                "GATEHOUSE_NOTICES_ENABLED", "true", "GATEHOUSE_NOTICES_CLIENT_ID", CLIENT,
                "GATEHOUSE_NOTICES_HOST_PROJECT", "demo", "GATEHOUSE_REPLICA_NAME", replica);
    }

    private static JsonNode hold(GatewayStack stack) throws Exception {
        HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/health"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(health.body()).path("notices").path("hold");
    }

    private static JsonNode counts(GatewayStack stack) throws Exception {
        return json(stack.admin("GET", "/admin/notices", "")).path("counts");
    }

    private static JsonNode threads(GatewayStack stack) throws Exception {
        return json(stack.service("GET", "/host/v1/threads?agentId=a1&workProjectId=" + PROJECT, "",
                Optional.empty())).path("threads");
    }

    private static void assign(GatewayStack stack, String runId) throws Exception {
        json(stack.service("POST", "/project/v1/admin/assignments", JSON.writeValueAsString(Map.of(
                "clientId", CLIENT, "agentId", "a1", "agentName", "Agent one", "projectId", PROJECT,
                "projectName", "Demo", "runId", runId, "title", "Task " + runId)), Optional.empty()));
    }

    /** Ends every turn of a1's threads, again and again, until told to stop. */
    private static Void endTurns(GatewayStack stack, AtomicBoolean running) throws Exception {
        while (running.get()) {
            for (JsonNode thread : threads(stack)) {
                if (!thread.path("activeRunId").isMissingNode() && !thread.path("activeRunId").isNull()) {
                    stack.service("POST", "/host/v1/threads/" + thread.path("threadId").asText() + "/interrupt",
                            "{}", Optional.of("a1"));
                }
            }
            Thread.sleep(300);
        }
        return null;
    }

    private static List<String> rows(Connection db, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Statement statement = db.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(result.getString(1));
            }
        }
        return rows;
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertTrue(response.statusCode() < 300, response.statusCode() + " " + response.body());
        return JSON.readTree(response.body());
    }

    @FunctionalInterface
    private interface Read<T> {
        T get() throws Exception;
    }

    /**
     * Waits for {@code what}, and prints how long it took and, every 5 s, what it saw meanwhile: the test's timeline,
     * for a slow run's report (it showed a takeover's deliveries waiting 75 s on a backoff the host's events had
     * doubled to its cap; NoticeDeliveryTest keeps that case).
     */
    private static <T> T until(String what, Read<T> read, Predicate<T> done) throws Exception {
        long started = System.nanoTime();
        long deadline = started + PATIENCE.toNanos();
        long nextReport = started + TimeUnit.SECONDS.toNanos(5);
        T last = null;
        while (System.nanoTime() < deadline) {
            if (System.nanoTime() > nextReport) {
                System.out.printf("notice replicas: still waiting for %s after %d ms; last %s%n", what,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), last);
                nextReport += TimeUnit.SECONDS.toNanos(5);
            }
            try {
                last = read.get();
                if (done.test(last)) {
                    System.out.printf("notice replicas: %s after %d ms%n", what,
                            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                    return last;
                }
            } catch (IOException | AssertionError notYet) {
                // a replica that is being killed or is not up yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError(what + " did not happen; last " + last);
    }
}
