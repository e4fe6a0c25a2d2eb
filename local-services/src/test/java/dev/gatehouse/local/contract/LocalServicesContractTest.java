package dev.gatehouse.local.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.EnvironmentPreferences;
import dev.gatehouse.facade.host.HostCaller;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.host.HttpHostFacade;
import dev.gatehouse.facade.host.LaunchRequest;
import dev.gatehouse.facade.host.LaunchedThread;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.facade.http.ContractSchemas;
import dev.gatehouse.facade.project.HttpProjectFacade;
import dev.gatehouse.facade.project.Operation;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.facade.project.WorkSubmission;
import dev.gatehouse.facade.wiki.HttpWikiFacade;
import dev.gatehouse.facade.wiki.WikiMove;
import dev.gatehouse.facade.wiki.WikiPage;
import dev.gatehouse.facade.wiki.WikiRevision;
import dev.gatehouse.facade.wiki.WikiScope;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local services speak the contracts of schemas/services/: driven through the real facades. */
class LocalServicesContractTest {

    private static final WikiScope A1 = new WikiScope("a1", "agents/a1");
    private static final ProjectBinding A1_DEMO = new ProjectBinding("a1", "ps-demo");
    private static final HostCaller T1 = new HostCaller("a1", Optional.of("t1"));

    @TempDir
    static Path data;

    private static LocalServices services;
    private static HttpWikiFacade wiki;
    private static HttpProjectFacade project;
    private static HttpHostFacade host;
    private static RawHttp raw;

    @BeforeAll
    static void start() {
        services = new LocalServices(data.resolve("fresh"));
        wiki = services.wiki();
        project = services.project();
        host = services.host();
        raw = new RawHttp(services.uri(), LocalServices.CREDENTIAL);
    }

    @AfterAll
    static void stop() {
        raw.close();
        wiki.close();
        project.close();
        host.close();
        services.close();
    }

    @Test
    void aFreshDataDirectoryIsSeededWithTheDemo() {
        assertEquals(new FacadeResult.Ok<>(new ThreadState("t1", false, "full-access", "default",
                Optional.of("run-t1"), Optional.of("pi-1"), Optional.of("demo"))), host.threadState("t1"));
        ThreadState t2 = ok(host.threadState("t2"));
        assertEquals(List.of("approval-required", "plan", "a live run"),
                List.of(t2.runtimeMode(), t2.interactionMode(), t2.activeRunId().map(r -> "a live run").orElse("")));
        assertEquals(Optional.empty(), ok(host.threadState("t3")).activeRunId());
        assertTrue(ok(wiki.read(A1, "agents/a1/page.md")).content().contains("Notes of agent a1"));
        assertTrue(raw.get("/wiki/v1/pages?path=agents/a2/secret.md", "a2").body().contains("A2-SECRET"));
        assertEquals(List.of(new WorkRun("run-201", "Triage incoming bugs", "open", "run:2", "position:1")),
                ok(project.listWork(new ProjectBinding("a2", "ps-demo"))));
        assertEquals("demo", ok(host.listProjects()).get(0).t3ProjectId());
    }

    @Test
    void everyAnswerMatchesItsSchema() {
        assertValid("wiki", "FolderListing", "/wiki/v1/folders?path=agents/a1", "a1");
        assertValid("wiki", "Page", "/wiki/v1/pages?path=agents/a1/page.md", "a1");
        assertValid("wiki", "SearchResult", "/wiki/v1/search?path=agents/a1&query=notes", "a1");
        assertValid("wiki", "Error", "/wiki/v1/pages?path=agents/a2/secret.md", "a1");
        assertValid("project", "RunList", "/project/v1/projects/ps-demo/agents/a1/work");
        assertValid("project", "Run", "/project/v1/projects/ps-demo/agents/a2/work/run-201");
        assertValid("host", "ThreadList", "/host/v1/threads");
        assertValid("host", "ThreadDetail", "/host/v1/threads/t1");
        assertValid("host", "Worktree", "/host/v1/threads/t1/worktree");
        assertValid("host", "Preview", "/host/v1/threads/t1/preview");
        assertValid("host", "ProjectList", "/host/v1/projects");
        assertValid("host", "Error", "/host/v1/threads/none");
    }

    /** A page of emoji filling the gateway's 1 MiB request bound is stored whole (found refused with HTTP 413). */
    @Test
    void aFullRequestOfEmojiIsStoredWhole() {
        String content = "\uD83D\uDE00".repeat(262_000);
        FacadeResult<WikiRevision> written = wiki.write(A1, "agents/a1/emoji.md", content, Optional.empty(), key());
        assertInstanceOf(FacadeResult.Ok.class, written, String.valueOf(written));
        FacadeResult<WikiPage> read = wiki.read(A1, "agents/a1/emoji.md");
        assertEquals(content, ((FacadeResult.Ok<WikiPage>) assertInstanceOf(FacadeResult.Ok.class, read)).value()
                .content());
    }

    /**
     * Paths are sent in the query, percent-encoded: 12 segments of 251 bytes of Arabic letters (about 9 KB on the
     * wire) are stored and read back. The longest path the policy admits (32 such segments) is longer than a file
     * system path may be: refused as {@code path_too_long}, a plain rejection, not a storage failure a mutation
     * would have to report as uncertain, and nothing is created on the way (found as HTTP 413, then 500).
     */
    @Test
    void longPathsAreStoredUpToWhatTheFileSystemHoldsAndRefusedCleanlyBeyond() {
        String stored = "agents/a1/" + arabicSegments("s", 12);
        FacadeResult<WikiRevision> written = wiki.write(A1, stored, "x", Optional.empty(), key());
        assertInstanceOf(FacadeResult.Ok.class, written, String.valueOf(written));
        assertEquals("x", ((FacadeResult.Ok<WikiPage>) assertInstanceOf(FacadeResult.Ok.class,
                wiki.read(A1, stored))).value().content());

        String longest = "agents/a1/" + arabicSegments("t", 32);
        FacadeResult<WikiRevision> refused = wiki.write(A1, longest, "x", Optional.empty(), key());
        assertEquals("path_too_long", ((ServiceError.Rejected) ((FacadeResult.Failed<WikiRevision>)
                assertInstanceOf(FacadeResult.Failed.class, refused, String.valueOf(refused))).error()).serviceCode());
        FacadeResult<List<dev.gatehouse.facade.wiki.WikiEntry>> listing = wiki.list(A1, "agents/a1");
        assertTrue(String.valueOf(listing).contains("path=s000") && !String.valueOf(listing).contains("path=t000"),
                String.valueOf(listing));
    }

    /** {@code count} segments of 251 UTF-8 bytes: a prefix, a number, Arabic letters; the last ends in .md. */
    private static String arabicSegments(String prefix, int count) {
        List<String> segments = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            String start = prefix + String.format("%03d", i);
            String end = i == count - 1 ? ".md" : "";
            int bytes = 251 - start.length() - end.length();
            segments.add(start + "\u0628".repeat(bytes / 2) + "a".repeat(bytes % 2) + end);
        }
        return String.join("/", segments);
    }

    @Test
    void theWikiServiceKeepsEachAgentInItsOwnSubtree() {
        RawHttp.Answer foreign = raw.get("/wiki/v1/pages?path=agents/a2/secret.md", "a1");
        RawHttp.Answer anonymous = raw.get("/wiki/v1/pages?path=agents/a1/page.md");

        assertEquals(400, foreign.status());
        assertTrue(foreign.body().contains("path_escape") && !foreign.body().contains("A2-SECRET"));
        assertEquals(List.of(400, List.of()), List.of(anonymous.status(),
                ContractSchemas.errors("wiki", "Error", anonymous.body())));
        assertTrue(anonymous.body().contains("agent_required"));
        assertEquals(new ServiceError.Rejected("the wiki service rejected the request (path_escape)",
                "path_escape"), error(wiki.read(A1, "agents/a10/page.md")));
    }

    @Test
    void aWrongCredentialIsAuthentication() {
        try (HttpProjectFacade intruder = services.project("guess")) {
            assertEquals("authentication", kind(intruder.listWork(A1_DEMO)));
        }
    }

    @Test
    void twoWritesFromOneRevisionOverHttpGiveOneRevisionAndOneConflict() {
        String page = "agents/a1/race.md";
        String base = ok(wiki.write(A1, page, "base", Optional.empty(), key())).revision();

        CompletableFuture<FacadeResult<WikiRevision>> first = CompletableFuture.supplyAsync(
                () -> wiki.write(A1, page, "A", Optional.of(base), key()));
        CompletableFuture<FacadeResult<WikiRevision>> second = CompletableFuture.supplyAsync(
                () -> wiki.write(A1, page, "B", Optional.of(base), key()));
        List<FacadeResult<WikiRevision>> results = List.of(first.join(), second.join());

        List<WikiRevision> won = results.stream().filter(FacadeResult.Ok.class::isInstance)
                .map(LocalServicesContractTest::ok).toList();
        assertEquals(List.of(new WikiRevision("race.md", "r2")), won, results.toString());
        assertEquals(1, results.stream().filter(r -> r instanceof FacadeResult.Failed<WikiRevision> f
                && f.error() instanceof ServiceError.Conflict).count());
        WikiPage stored = ok(wiki.read(A1, page));
        assertEquals("r2", stored.revision());
        assertTrue(stored.content().equals("A") || stored.content().equals("B"));
    }

    @Test
    void aMoveOverHttpTakesThePageAlongAndNeverOverwritesOrLeavesTheSubtree() {
        String base = ok(wiki.write(A1, "agents/a1/to-move.md", "moving", Optional.empty(), key())).revision();
        ok(wiki.write(A1, "agents/a1/taken.md", "stays", Optional.empty(), key()));

        assertEquals("conflict", kind(wiki.move(A1, "agents/a1/to-move.md", "agents/a1/taken.md", base, key())));
        assertEquals("conflict", kind(wiki.move(A1, "agents/a1/to-move.md", "agents/a1/moved/here.md", "r99", key())));
        assertEquals(new ServiceError.Rejected("the wiki service rejected the request (path_escape)",
                "path_escape"), error(wiki.move(A1, "agents/a1/to-move.md", "agents/a2/stolen.md", base, key())));
        WikiMove moved = ok(wiki.move(A1, "agents/a1/to-move.md", "agents/a1/moved/here.md", base, key()));

        assertEquals(new WikiMove("to-move.md", "moved/here.md", "r2"), moved);
        assertEquals(new WikiPage("moved/here.md", "moving", "r2"), ok(wiki.read(A1, "agents/a1/moved/here.md")));
        assertEquals(new ServiceError.NotFound("the wiki service has no such page", "page"),
                error(wiki.move(A1, "agents/a1/to-move.md", "agents/a1/again.md", base, key())));
        assertEquals("stays", ok(wiki.read(A1, "agents/a1/taken.md")).content());
        assertEquals("not_found", kind(wiki.read(new WikiScope("a2", "agents/a2"), "agents/a2/stolen.md")));
    }

    @Test
    void aRepeatedIdempotencyKeyReturnsTheStoredOperationAndAnotherBodyIsRejected() {
        String path = "/project/v1/projects/ps-demo/agents/a1/work/run-102/submissions";
        String body = "{\"runRevision\":\"run:1\",\"assignmentRevision\":\"position:1\",\"result\":{\"a\":1,\"b\":2}}";
        String sameBodyReordered =
                "{\"assignmentRevision\":\"position:1\",\"runRevision\":\"run:1\",\"result\":{\"b\":2,\"a\":1}}";

        RawHttp.Answer first = raw.post(path, "key-1", body);
        RawHttp.Answer replay = raw.post(path, "key-1", sameBodyReordered);
        RawHttp.Answer other = raw.post(path, "key-1", body.replace("\"a\":1", "\"a\":3"));

        assertEquals(201, first.status());
        assertEquals(List.of(), ContractSchemas.errors("project", "Operation", first.body()));
        assertEquals(200, replay.status());
        assertEquals(first.body(), replay.body());
        assertEquals(first.operationId(), replay.operationId());
        assertEquals(422, other.status());
        assertTrue(other.body().contains("idempotency_key_reused"));
        assertEquals("run:2", ok(project.getWork(A1_DEMO, "run-102")).runRevision(), "committed exactly once");
    }

    @Test
    void submitsCommitConflictWhenStaleAndAreRejectedOnAClosedRun() {
        WorkRun run = ok(project.getWork(A1_DEMO, "run-101"));
        Operation committed = ok(project.submitWork(A1_DEMO, new WorkSubmission("run-101", run.runRevision(),
                run.assignmentRevision(), Map.of("summary", "done")), key()));

        assertEquals("committed", committed.status());
        assertEquals(committed, ok(project.getOperation(A1_DEMO, committed.operationId())));
        assertEquals("conflict", kind(project.submitWork(A1_DEMO, new WorkSubmission("run-101",
                run.runRevision(), run.assignmentRevision(), Map.of("summary", "again")), key())));
        Operation rejected = ok(project.submitWork(A1_DEMO, new WorkSubmission("run-103", "run:7", "position:3",
                Map.of()), key()));
        assertEquals(List.of("rejected", "run_closed"), List.of(rejected.status(), rejected.reason().orElse("")));
        assertEquals(new ServiceError.NotFound("the project service has no such operation", "operation"),
                error(project.getOperation(new ProjectBinding("a2", "ps-demo"), committed.operationId())));
        assertEquals("not_found", kind(project.getWork(A1_DEMO, "run-201")), "a2's run is not a1's");
    }

    @Test
    void hostMutationsApplyAndUnknownThingsAreNotFound() {
        LaunchedThread launched = ok(host.launch(T1, new LaunchRequest("demo", "write tests", Optional.of("Tests"),
                new ThreadModes("auto", "plan")), key()));
        assertEquals(new ThreadModes("auto", "plan"), launched.modes());
        assertEquals("auto", ok(host.threadState(launched.threadId())).runtimeMode());
        assertEquals(new ServiceError.NotFound("the host service has no such project", "project"),
                error(host.launch(T1, new LaunchRequest("nope", "x", Optional.empty(),
                        new ThreadModes("auto", "plan")), key())));

        assertEquals(launched.threadId(), ok(host.send(T1, launched.threadId(), "hello", key())).threadId());
        assertEquals("hello", ok(host.readThread(launched.threadId())).messages().get(1).text());
        assertTrue(ok(host.interrupt(T1, launched.threadId(), key())).interrupted());
        assertEquals(Optional.empty(), ok(host.threadState(launched.threadId())).activeRunId());
        assertEquals("started", ok(host.delegate(T1, "t1", "sub task", new ThreadModes("auto", "default"), key()))
                .status());
        assertEquals(Optional.of("https://example.test/"),
                ok(host.openPreview(T1, "t1", "https://example.test/", key())).url());
        assertEquals(Optional.of(7), ok(host.updatePreferences(T1, new EnvironmentPreferences(Optional.empty(),
                Optional.of("plan"), Optional.of(7)), key())).autoArchiveDays());
        assertEquals("not_found", kind(host.send(T1, "t404", "x", key())));
    }

    private static void assertValid(String service, String definition, String path) {
        assertValid(service, definition, path, "a1");
    }

    private static void assertValid(String service, String definition, String path, String agentId) {
        String body = raw.get(path, agentId).body();
        assertEquals(List.of(), ContractSchemas.errors(service, definition, body), path);
    }

    @SuppressWarnings("unchecked")
    private static <T> T ok(FacadeResult<T> result) {
        assertInstanceOf(FacadeResult.Ok.class, result, result::toString);
        return ((FacadeResult.Ok<T>) result).value();
    }

    private static ServiceError error(FacadeResult<?> result) {
        return assertInstanceOf(FacadeResult.Failed.class, result).error();
    }

    private static String kind(FacadeResult<?> result) {
        return error(result).kind();
    }

    private static IdempotencyKey key() {
        return LocalServices.key();
    }
}
