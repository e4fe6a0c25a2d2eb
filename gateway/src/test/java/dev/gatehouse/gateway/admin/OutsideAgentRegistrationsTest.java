package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.admin.audit.AuditEntry;
import dev.gatehouse.gateway.admin.audit.AuditQuery;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.context.ResolvedCaller;
import dev.gatehouse.gateway.context.TrustedContextResolver;
import dev.gatehouse.gateway.gate.UnicodeFacts;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Outside-agent registrations through the admin API on PostgreSQL (docs/domain.md §1), as a new user's trial found
 * them broken: a registration carries its own settings, so no second registration may take an id another holds (also
 * when writers race), and removing a registration takes its settings with it, so the caller falls back to no
 * settings. Each case is decided by the gateway's own PIP and the served bundle, as a call would be.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/outside-agents.jsonl")
class OutsideAgentRegistrationsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final AgentSettings NONE = AgentSettings.NONE;
    private static final AgentSettings READER = settings(false, true, false);
    private static final AgentSettings WRITER = settings(false, true, true);

    @Inject
    EmbeddedServer server;
    @Inject
    AgentDirectory directory;
    @Inject
    AgentSettingsStore settingsStore;
    @Inject
    TrustedContextResolver pip;
    @Inject
    PolicyDecisionPoint pdp;
    @Inject
    ChangeAudit audit;

    /** An issuer of this test alone, so the cases share no registration. */
    private final String issuer = "https://issuer-" + SessionTokens.newId() + ".example";

    @Test
    void anIdAnotherRegistrationHoldsIsRefusedAndNothingIsWritten() throws Exception {
        String taken = "oa-o1-" + suffix();
        assertEquals(200, put("o1", taken, READER).statusCode());

        // The trial's request: o2 asks for o1's id (it was answered 200 and replaced o1's settings).
        assertTaken(put("o2", taken, WRITER), "o1");
        assertEquals(Optional.empty(), directory.registration(issuer, "o2"));
        // Variants: o2 registered already and moving onto the id; the same subject from another issuer.
        String own = "oa-o2-" + suffix();
        assertEquals(200, put("o2", own, WRITER).statusCode());
        assertTaken(put("o2", taken, NONE), "o1");
        assertEquals(own, directory.registration(issuer, "o2").orElseThrow().logicalAgentId());
        assertEquals(WRITER, directory.settings(AgentKey.outside(own)));
        String otherIssuer = issuer + "/other";
        HttpResponse<String> sameSubject = admin("PUT", "/admin/outside-agents", body(otherIssuer, "o1", taken,
                NONE));
        assertEquals(400, sameSubject.statusCode(), sameSubject.body());
        assertEquals(Optional.empty(), directory.registration(otherIssuer, "o1"));

        assertEquals(READER, directory.settings(AgentKey.outside(taken)), "o1's settings were never replaced");
        assertEquals(List.of(taken), registrations().stream().filter(r -> r.path("logicalAgentId").asText()
                .equals(taken)).map(r -> r.path("logicalAgentId").asText()).toList());
        assertEquals(1, entries(taken).size(), "only o1's registration was audited under the id");
        assertEquals(Optional.of("outside-agents/" + own), decide("o2", "wiki_read").obligations().wikiRoot(),
                "o2 reads its own subtree, never o1's");
    }

    @Test
    void theSamePairRegisteredAgainReplacesItsRegistrationAndAMovedIdLeavesNoSettings() throws Exception {
        String first = "oa-a-" + suffix();
        assertEquals(200, put("o1", first, READER).statusCode());
        assertEquals(200, put("o1", first, WRITER).statusCode(), "the same id again: replaced");
        assertEquals(WRITER, directory.settings(AgentKey.outside(first)));

        String second = "oa-b-" + suffix();
        assertEquals(200, put("o1", second, READER).statusCode(), "a new id: replaced");
        assertEquals(READER, directory.settings(AgentKey.outside(second)));
        assertEquals(Optional.empty(), settingsStore.find(first), "the old id's settings went with it");
        assertTrue(entries(second).get(0).change().detail().contains("was " + first), entries(second).toString());

        // The freed id is free for another pair, which gets its own settings and nothing left of o1's.
        assertEquals(200, put("o3", first, NONE).statusCode());
        assertEquals(NONE, directory.settings(AgentKey.outside(first)));

        // Moving off the derived id leaves nothing under it for the day the registration goes.
        String derived = OutsideAgentIds.derive(issuer, "o4");
        assertEquals(200, put("o4", null, WRITER).statusCode());
        assertEquals(200, put("o4", "oa-c-" + suffix(), READER).statusCode());
        assertEquals(Optional.empty(), settingsStore.find(derived));
        assertEquals(204, delete("o4").statusCode());
        assertEquals(NONE.facts(), resolve("o4").facts().settings());
        assertEquals(List.of("capability_missing"), codes(decide("o4", "wiki_write")));
    }

    /** The database keeps the id unique: of writers racing for one id, exactly one wins, and its settings stand. */
    @Test
    void writersRacingForOneIdLeaveOneRegistration() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            for (int round = 0; round < 3; round++) {
                String id = "oa-race-" + suffix();
                CountDownLatch start = new CountDownLatch(1);
                List<Future<HttpResponse<String>>> answers = new ArrayList<>();
                for (int writer = 0; writer < 6; writer++) {
                    String subject = "r" + round + "-" + writer;
                    AgentSettings own = settings(false, true, writer % 2 == 0);
                    answers.add(pool.submit(() -> {
                        start.await();
                        return put(subject, id, own);
                    }));
                }
                start.countDown();
                List<String> winners = new ArrayList<>();
                for (Future<HttpResponse<String>> answer : answers) {
                    HttpResponse<String> response = answer.get();
                    if (response.statusCode() == 200) {
                        winners.add(JSON.readTree(response.body()).path("subject").asText());
                    } else {
                        assertEquals(400, response.statusCode(), response.body());
                        assertEquals(List.of("logicalAgentId"), JSON.convertValue(JSON.readTree(response.body())
                                .path("invalid"), List.class));
                    }
                }
                assertEquals(1, winners.size(), "round " + round + ": " + winners);
                List<JsonNode> holders = registrations().stream().filter(r -> r.path("logicalAgentId").asText()
                        .equals(id)).toList();
                assertEquals(1, holders.size(), holders.toString());
                assertEquals(winners.get(0), holders.get(0).path("subject").asText());
                boolean writes = Integer.parseInt(winners.get(0).substring(winners.get(0).indexOf('-') + 1)) % 2 == 0;
                assertEquals(writes, directory.settings(AgentKey.outside(id)).wiki().write(), "the winner's settings");
                assertEquals(1, entries(id).size(), "one audited change");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The trial's case: removed, the derived-id agent still wrote the wiki with the settings nobody could see. */
    @Test
    void removingARegistrationRemovesItsSettingsAndTheCallerHoldsNone() throws Exception {
        String derived = OutsideAgentIds.derive(issuer, "o2");
        assertEquals(200, put("o2", null, WRITER).statusCode());
        assertEquals(derived, resolve("o2").context().logicalAgentId());
        assertTrue(decide("o2", "wiki_write").allow(), decide("o2", "wiki_write").reasons().toString());

        assertEquals(204, delete("o2").statusCode());
        ResolvedCaller after = resolve("o2");
        assertEquals(derived, after.context().logicalAgentId(), "unregistered, it acts as its derived id");
        assertEquals(NONE.facts(), after.facts().settings(), "with no settings");
        assertEquals(List.of("capability_missing"), codes(decide("o2", "wiki_write")));
        assertEquals(List.of("capability_missing"), codes(decide("o2", "wiki_read")));
        assertEquals(Optional.empty(), settingsStore.find(derived));
        AuditEntry removal = entries(derived).get(0);
        assertEquals("outside-agent.remove", removal.change().action());
        assertTrue(removal.change().detail().contains("settings of " + derived) && removal.change().detail()
                .contains("wiki write: on → off"), removal.change().detail());
        JsonNode capabilities = JSON.readTree(admin("GET", "/admin/agents/" + derived
                + "/capabilities?ceiling=full-access", null).body());
        assertEquals(JSON.readTree("[\"orchestration\"]"), capabilities.path("capabilities"));

        // A registered id goes the same way, and a removal of nothing changes and audits nothing.
        String named = "oa-named-" + suffix();
        assertEquals(200, put("o5", named, WRITER).statusCode());
        assertEquals(204, delete("o5").statusCode());
        assertEquals(Optional.empty(), settingsStore.find(named));
        assertEquals(NONE.facts(), resolve("o5").facts().settings());
        assertEquals(404, delete("o5").statusCode());
        assertEquals(2, entries(named).size(), "registered, removed");
    }

    /**
     * A registration is replaced only at the version the writer read, as a thread agent's settings are (without a
     * version check an API edit silently undid a console edit made a moment before). The version is in the listing
     * and the {@code ETag}; {@code If-Match}, the body's {@code version} and {@code If-None-Match: *} are read as for
     * {@code PUT /admin/agents/{id}}; a stale one is 409 with the current version, {@code If-None-Match: *} on a
     * registered pair 412, and nothing is written or audited.
     */
    @Test
    void aRegistrationIsReplacedOnlyAtTheVersionTheWriterRead() throws Exception {
        String id = "oa-versioned-" + suffix();
        HttpResponse<String> created = put("v1", id, READER, Map.of("If-None-Match", "*"));
        assertEquals(200, created.statusCode(), created.body());
        assertEquals(1, JSON.readTree(created.body()).path("version").asLong());
        assertEquals(Optional.of("\"1\""), created.headers().firstValue("ETag"));
        assertEquals(1, listed(id).path("version").asLong());

        HttpResponse<String> edited = put("v1", id, WRITER, Map.of("If-Match", "\"1\""));
        assertEquals(200, edited.statusCode(), edited.body());
        assertEquals(2, JSON.readTree(edited.body()).path("version").asLong());

        // The stale writer: by If-Match, quoted or bare, by the body's version, and moving the id.
        String other = "oa-versioned-other-" + suffix();
        List<HttpResponse<String>> stale = List.of(put("v1", id, NONE, Map.of("If-Match", "\"1\"")),
                put("v1", id, NONE, Map.of("If-Match", "1")),
                admin("PUT", "/admin/outside-agents", withVersion(body(issuer, "v1", id, NONE), 1)),
                put("v1", other, NONE, Map.of("If-Match", "1")));
        for (HttpResponse<String> conflict : stale) {
            assertEquals(409, conflict.statusCode(), conflict.body());
            assertEquals(JSON.readTree("{\"error\":\"version_conflict\",\"currentVersion\":2}"),
                    JSON.readTree(conflict.body()));
            assertEquals(Optional.of("\"2\""), conflict.headers().firstValue("ETag"));
        }
        assertEquals(WRITER, directory.settings(AgentKey.outside(id)), "no stale write applied");
        assertEquals(id, directory.registration(issuer, "v1").orElseThrow().logicalAgentId());
        assertEquals(Optional.empty(), settingsStore.find(other));
        assertEquals(2, entries(id).size(), "created, edited: a conflict audits nothing");

        // If-None-Match: * on a registered pair is a false condition (RFC 9110 §13.1.2): 412, as a failed If-Match,
        // not 409 (a new user's trial), with the body's version 0 too, under the same id or another; nothing written.
        for (HttpResponse<String> exists : List.of(put("v1", id, NONE, Map.of("If-None-Match", "*")),
                put("v1", other, NONE, Map.of("If-None-Match", "*")),
                send("PUT", withVersion(body(issuer, "v1", id, NONE), 0), Map.of("If-None-Match", "*")))) {
            assertEquals(412, exists.statusCode(), exists.body());
            assertEquals("precondition_failed", JSON.readTree(exists.body()).path("error").asText());
            assertTrue(JSON.readTree(exists.body()).path("message").asText().contains("at version 2"), exists.body());
        }
        assertEquals(WRITER, directory.settings(AgentKey.outside(id)), "no If-None-Match write applied");
        assertEquals(2, entries(id).size(), "a failed precondition audits nothing");

        // A version for a pair not registered is a conflict at 0, and registers nothing.
        HttpResponse<String> none = put("v2", null, WRITER, Map.of("If-Match", "3"));
        assertEquals(409, none.statusCode(), none.body());
        assertEquals(0, JSON.readTree(none.body()).path("currentVersion").asLong());
        assertEquals(Optional.empty(), directory.registration(issuer, "v2"));

        // Malformed or contradictory preconditions are 400, as for thread agents' settings.
        assertEquals("invalid_version", JSON.readTree(put("v1", id, NONE, Map.of("If-Match", "two")).body())
                .path("error").asText());
        assertEquals(400, admin("PUT", "/admin/outside-agents", withVersion(body(issuer, "v1", id, NONE), -1))
                .statusCode());
        HttpResponse<String> disagree = send("PUT", withVersion(body(issuer, "v1", id, NONE), 2),
                Map.of("If-Match", "\"3\""));
        assertEquals(400, disagree.statusCode(), disagree.body());
        HttpResponse<String> ifNoneMatch = put("v1", id, NONE, Map.of("If-None-Match", "\"2\""));
        assertEquals(List.of("If-None-Match"), JSON.convertValue(JSON.readTree(ifNoneMatch.body()).path("invalid"),
                List.class));
        assertEquals(WRITER, directory.settings(AgentKey.outside(id)), "nothing written by a refusal");

        // Without a version the last write wins, as before (scripts/run.sh registers so).
        HttpResponse<String> blind = put("v1", id, READER, Map.of());
        assertEquals(3, JSON.readTree(blind.body()).path("version").asLong(), blind.body());
    }

    /**
     * If-Match compares strongly and takes {@code *} for a registration as for a thread agent's settings (RFC 9110
     * §13.1.1): a weak tag never matches, {@code *} matches a stored registration and fails without one, either a 412
     * that writes and audits nothing; {@code *} writes at the version it found, with a body version at that one, and
     * with version 0 (nothing stored) contradicts itself.
     */
    @Test
    void ifMatchComparesStronglyAndStarMatchesAStoredRegistrationOnly() throws Exception {
        String id = "oa-strong-" + suffix();
        for (String weak : List.of("W/\"0\"", "W/\"1\"", " W/\"1\" ")) {
            HttpResponse<String> refused = put("s1", id, WRITER, Map.of("If-Match", weak));
            assertEquals(412, refused.statusCode(), weak + ": " + refused.body());
            assertEquals("precondition_failed", JSON.readTree(refused.body()).path("error").asText(), weak);
            assertTrue(JSON.readTree(refused.body()).path("message").asText().contains("weak"), refused.body());
        }
        HttpResponse<String> none = put("s1", id, WRITER, Map.of("If-Match", "*"));
        assertEquals(412, none.statusCode(), none.body());
        assertEquals("precondition_failed", JSON.readTree(none.body()).path("error").asText());
        assertEquals(Optional.empty(), directory.registration(issuer, "s1"), "nothing was registered");
        assertEquals(List.of(), entries(id), "a failed precondition audits nothing");

        assertEquals(200, put("s1", id, READER, Map.of()).statusCode());
        for (String weak : List.of("W/\"1\"", "W/\"2\"")) {
            assertEquals(412, put("s1", id, WRITER, Map.of("If-Match", weak)).statusCode(), weak);
        }
        assertEquals(READER, directory.settings(AgentKey.outside(id)), "a weak tag wrote nothing");
        assertEquals(1, listed(id).path("version").asLong());
        HttpResponse<String> any = put("s1", id, WRITER, Map.of("If-Match", "*"));
        assertEquals(200, any.statusCode(), any.body());
        assertEquals(Optional.of("\"2\""), any.headers().firstValue("ETag"));
        assertEquals(WRITER, directory.settings(AgentKey.outside(id)));
        assertEquals(200, send("PUT", withVersion(body(issuer, "s1", id, READER), 2), Map.of("If-Match", " * "))
                .statusCode(), "* and the current version agree");
        HttpResponse<String> stale = send("PUT", withVersion(body(issuer, "s1", id, WRITER), 1),
                Map.of("If-Match", "*"));
        assertEquals(409, stale.statusCode(), "* and a stale version: the version counts");
        assertEquals(3, JSON.readTree(stale.body()).path("currentVersion").asLong());
        HttpResponse<String> contradiction = send("PUT", withVersion(body(issuer, "s1", id, WRITER), 0),
                Map.of("If-Match", "*"));
        assertEquals(400, contradiction.statusCode(), "* (registered) and version 0 (none registered) contradict");
        assertEquals("version", JSON.readTree(contradiction.body()).path("invalid").path(0).asText());
        for (String malformed : List.of("\"*\"", "*, \"3\"", "\"3\", \"4\"", "\"-3\"")) {
            HttpResponse<String> refused = put("s1", id, WRITER, Map.of("If-Match", malformed));
            assertEquals(400, refused.statusCode(), malformed + ": " + refused.body());
            assertEquals("version", JSON.readTree(refused.body()).path("invalid").path(0).asText(), malformed);
        }
        assertEquals(READER, directory.settings(AgentKey.outside(id)), "nothing else was written");
        assertEquals(3, listed(id).path("version").asLong());
        assertEquals(3, entries(id).size(), "three writes audited, no refusal");
    }

    /**
     * {@code GET} lists each registration in the shape {@code PUT} takes (flat settings, as
     * {@code GET /admin/agents/{id}} shows a thread agent's): a listed entry sent back as it is is a valid request at
     * its own version (it was {@code settings: {…}} nested, which {@code PUT} refuses as an unknown member).
     */
    @Test
    void aListedRegistrationSentBackAsItIsIsAValidRequest() throws Exception {
        String id = "oa-shape-" + suffix();
        AgentSettings bound = new AgentSettings(true, new AgentSettings.Project(true, Optional.of("ps-shape")),
                new AgentSettings.Wiki(true, false));
        assertEquals(200, admin("PUT", "/admin/outside-agents", JSON.createObjectNode().put("issuer", issuer)
                .put("subject", "shape").put("logicalAgentId", id).put("browserAccess", true)
                .<ObjectNode>set("project", JSON.createObjectNode().put("enabled", true)
                        .put("projectServiceProjectId", "ps-shape"))
                .<ObjectNode>set("wiki", JSON.createObjectNode().put("read", true)).toString()).statusCode());
        JsonNode entry = listed(id);
        assertEquals(JSON.readTree("{\"issuer\":\"" + issuer + "\",\"subject\":\"shape\",\"logicalAgentId\":\"" + id
                + "\",\"browserAccess\":true,\"project\":{\"enabled\":true,\"projectServiceProjectId\":\"ps-shape\"},"
                + "\"wiki\":{\"read\":true,\"write\":false},\"version\":1}"), entry);

        HttpResponse<String> again = admin("PUT", "/admin/outside-agents", entry.toString());
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(2, JSON.readTree(again.body()).path("version").asLong());
        assertEquals(bound, directory.settings(AgentKey.outside(id)));
        assertEquals(409, admin("PUT", "/admin/outside-agents", entry.toString()).statusCode(),
                "the entry read before is stale now");
    }

    /** Writers racing with the same version: exactly one wins, the others are told the version it wrote. */
    @Test
    void writersRacingAtOneVersionLeaveOneWinner() throws Exception {
        String id = "oa-race-version-" + suffix();
        assertEquals(200, put("rv", id, NONE, Map.of()).statusCode());
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int writer = 0; writer < 6; writer++) {
                AgentSettings own = settings(writer % 2 == 0, true, writer % 3 == 0);
                answers.add(pool.submit(() -> {
                    start.await();
                    return put("rv", id, own, Map.of("If-Match", "\"1\""));
                }));
            }
            start.countDown();
            int won = 0;
            for (Future<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.get();
                if (response.statusCode() == 200) {
                    won++;
                } else {
                    assertEquals(409, response.statusCode(), response.body());
                    assertEquals(2, JSON.readTree(response.body()).path("currentVersion").asLong());
                }
            }
            assertEquals(1, won);
            assertEquals(2, listed(id).path("version").asLong());
            assertEquals(2, entries(id).size(), "registered, and the one winning edit");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Writers racing to create one registration with {@code If-None-Match: *}: exactly one wins, and the others,
     * refused by the store rather than by the read before it, fail the precondition too (412, not 409).
     */
    @Test
    void writersRacingToCreateOneRegistrationLeaveOneWinnerAndFailTheOthersPrecondition() throws Exception {
        String id = "oa-race-create-" + suffix();
        String subject = "rc-" + suffix();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int writer = 0; writer < 6; writer++) {
                AgentSettings own = settings(writer % 2 == 0, true, writer % 3 == 0);
                answers.add(pool.submit(() -> {
                    start.await();
                    return put(subject, id, own, Map.of("If-None-Match", "*"));
                }));
            }
            start.countDown();
            int won = 0;
            for (Future<HttpResponse<String>> answer : answers) {
                HttpResponse<String> response = answer.get();
                if (response.statusCode() == 200) {
                    won++;
                } else {
                    assertEquals(412, response.statusCode(), response.body());
                    assertEquals("precondition_failed", JSON.readTree(response.body()).path("error").asText());
                }
            }
            assertEquals(1, won);
            assertEquals(1, listed(id).path("version").asLong());
            assertEquals(1, entries(id).size(), "the one registration");
        } finally {
            pool.shutdownNow();
        }
    }

    /** The trial's third case through HTTP: browser access on an outside agent lists no preview. */
    @Test
    void theReadApiListsNoPreviewForAnOutsideAgent() throws Exception {
        String id = "oa-browser-" + suffix();
        assertEquals(200, put("o6", id, settings(true, true, false)).statusCode());
        JsonNode held = JSON.readTree(admin("GET", "/admin/agents/" + id + "/capabilities?ceiling=full-access",
                null).body());
        assertEquals(JSON.readTree("[\"orchestration\",\"wiki.read\"]"), held.path("capabilities"));
        assertEquals(List.of("thread_credential_required", "capability_denied"), codes(decide("o6",
                "preview_status")));
    }

    private static AgentSettings settings(boolean browser, boolean wikiRead, boolean wikiWrite) {
        return new AgentSettings(browser, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(wikiRead, wikiWrite));
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private String body(String tokenIssuer, String subject, String logicalAgentId, AgentSettings agent) {
        ObjectNode body = JSON.createObjectNode().put("issuer", tokenIssuer).put("subject", subject)
                .put("browserAccess", agent.browserAccess());
        if (logicalAgentId != null) {
            body.put("logicalAgentId", logicalAgentId);
        }
        body.putObject("wiki").put("read", agent.wiki().read()).put("write", agent.wiki().write());
        return body.toString();
    }

    private HttpResponse<String> put(String subject, String logicalAgentId, AgentSettings agent) throws Exception {
        return admin("PUT", "/admin/outside-agents", body(issuer, subject, logicalAgentId, agent));
    }

    private HttpResponse<String> put(String subject, String logicalAgentId, AgentSettings agent,
            Map<String, String> headers) throws Exception {
        return send("PUT", body(issuer, subject, logicalAgentId, agent), headers);
    }

    private static String withVersion(String body, long version) throws Exception {
        return ((ObjectNode) JSON.readTree(body)).put("version", version).toString();
    }

    /** The listed registration of {@code agentId}. */
    private JsonNode listed(String agentId) throws Exception {
        return registrations().stream().filter(r -> r.path("logicalAgentId").asText().equals(agentId)).findFirst()
                .orElseThrow();
    }

    private HttpResponse<String> send(String method, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort()
                + "/admin/outside-agents")).method(method, HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Authorization", "Bearer admin-test-credential");
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> delete(String subject) throws Exception {
        return admin("DELETE", "/admin/outside-agents?issuer=" + URLEncoder.encode(issuer, StandardCharsets.UTF_8)
                + "&subject=" + subject, null);
    }

    private HttpResponse<String> admin(String method, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Authorization", "Bearer admin-test-credential")
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<JsonNode> registrations() throws Exception {
        List<JsonNode> listed = new ArrayList<>();
        JSON.readTree(admin("GET", "/admin/outside-agents", null).body()).forEach(listed::add);
        return listed;
    }

    private List<AuditEntry> entries(String agentId) {
        return audit.entries(new AuditQuery(Optional.empty(), Optional.of(agentId), OptionalLong.empty(), 10));
    }

    /** A structured 400 on {@code logicalAgentId} naming the pair that holds the id. */
    private void assertTaken(HttpResponse<String> response, String holder) throws Exception {
        assertEquals(400, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals("invalid_fields", body.path("error").asText());
        assertEquals(List.of("logicalAgentId"), JSON.convertValue(body.path("invalid"), List.class));
        String message = body.path("messages").path(0).asText();
        assertTrue(message.contains("another registration's (issuer " + issuer + ", subject " + holder + ")"),
                message);
    }

    private ResolvedCaller resolve(String subject) {
        return pip.resolve(new AuthenticatedCaller(new Authenticated.OutsideAgent(issuer, subject, "full-access"),
                Optional.empty()));
    }

    /** The served policy's decision on a call of {@code tool} by the outside agent, from the PIP's own facts. */
    private Decision decide(String subject, String tool) {
        ResolvedCaller caller = resolve(subject);
        Map<String, Object> arguments = tool.startsWith("wiki_") ? Map.of("path", "page.md", "content", "x")
                : Map.of();
        if (tool.equals("wiki_read")) {
            arguments = Map.of("path", "page.md");
        }
        DecisionInput input = new DecisionInput(Optional.of(tool), Optional.of(arguments), List.of(), caller.facts(),
                Map.of(), UnicodeFacts.of(arguments, List.of("path"), caller.facts()));
        return ((PolicyOutcome.Decided<Decision>) pdp.decide(input)).value();
    }

    private static List<String> codes(Decision decision) {
        assertFalse(decision.allow(), "denied");
        return decision.reasons().stream().map(Decision.Reason::code).toList();
    }
}
