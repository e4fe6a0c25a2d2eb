package dev.gatehouse.local.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.HostCaller;
import dev.gatehouse.facade.host.HttpThreadFeed;
import dev.gatehouse.facade.host.ThreadCursor;
import dev.gatehouse.facade.host.ThreadEvent;
import dev.gatehouse.facade.host.ThreadEventPage;
import dev.gatehouse.facade.host.ThreadFeed;
import dev.gatehouse.facade.host.ThreadListing;
import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.facade.http.ContractSchemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host's thread events feed (schemas/services/README.md, "Thread events") through the real facade: a list
 * carries the cursor it reflects; every change of a shell (run started and ended, modes, archived, provider
 * instance) is one event after it, in order, positions one by one, each with the shell right after it; an idle poll
 * ends with an empty page (the heartbeat) and a waiting poll wakes for a change; pages are cut at 100 with
 * {@code more}; a cursor the feed no longer holds (trimmed, another history, ahead of the feed, from before
 * histories) is 410 {@code cursor_expired}, a malformed one 400; a restart keeps the history, a new data directory
 * starts another.
 */
class ThreadFeedContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path data;

    @Test
    void everyChangeOfAShellIsOneEventAfterTheListsCursorWithTheShellAfterIt() throws Exception {
        try (LocalServices services = new LocalServices(data.resolve("a"));
                HttpThreadFeed feed = services.threadFeed()) {
            RawHttp raw = new RawHttp(services.uri(), LocalServices.CREDENTIAL);
            ThreadListing listing = ok(feed.list());
            assertEquals(Optional.of("full-access"), listing.threads().stream()
                    .filter(t -> t.threadId().equals("t1")).findFirst().map(ThreadState::runtimeMode));
            assertEquals(0, ThreadCursor.parse(listing.cursor()).orElseThrow().position(), "nothing happened yet");

            assertEquals(200, change(raw, "t1", "{\"runtimeMode\": \"auto\", \"interactionMode\": \"plan\"}").status());
            change(raw, "t1", "{\"archived\": true}");
            change(raw, "t1", "{\"archived\": false, \"providerInstanceId\": \"pi-9\"}");
            ok(services.host().interrupt(new HostCaller("a1", Optional.of("t1")), "t1", LocalServices.key()));
            RawHttp.Answer last = change(raw, "t1", "{\"runtimeMode\": \"auto\"}");
            assertEquals(ContractSchemas.errors("host", "ThreadChanged", last.body()), List.of());

            ThreadEventPage page = ok(feed.events(Optional.of(listing.cursor()), 0));
            assertEquals(List.of("modes_changed", "archived", "unarchived", "provider_instance_changed", "run_ended"),
                    page.events().stream().map(ThreadEvent::type).toList(), "a change to what it is now is none");
            List<ThreadState> shells = page.events().stream().map(e -> e.thread().orElseThrow()).toList();
            assertEquals("plan", shells.get(0).interactionMode());
            assertFalse(shells.get(0).archived());
            assertTrue(shells.get(1).archived());
            assertEquals(Optional.of("pi-1"), shells.get(1).providerInstanceId());
            assertFalse(shells.get(2).archived(), "each event carries the shell right after its own change");
            assertEquals(Optional.of("pi-1"), shells.get(2).providerInstanceId());
            assertEquals(Optional.of("pi-9"), shells.get(3).providerInstanceId());
            assertEquals(Optional.of("run-t1"), shells.get(3).activeRunId());
            assertEquals(Optional.empty(), shells.get(4).activeRunId(), "the run-ended shell has no run");
            assertEquals(Optional.of("run-t1"), page.events().get(4).runId());
            assertEquals(Optional.empty(), page.events().get(0).runId());
            ThreadCursor previous = ThreadCursor.parse(listing.cursor()).orElseThrow();
            for (ThreadEvent event : page.events()) {
                ThreadCursor next = ThreadCursor.parse(event.cursor()).orElseThrow();
                assertTrue(previous.isFollowedBy(next), event.cursor() + " after " + previous);
                previous = next;
            }
            assertEquals(page.events().get(4).cursor(), page.cursor());
            assertFalse(page.more());
            assertEquals(JSON.readTree(last.body()).get("cursor").textValue(), page.cursor(),
                    "the admin route names the position after its change");
            assertEquals(List.of(), ContractSchemas.errors("host", "ThreadEventPage",
                    raw.get("/host/v1/events?after=" + listing.cursor()).body()));
            assertEquals(List.of(), ContractSchemas.errors("host", "ThreadList", raw.get("/host/v1/threads").body()));
        }
    }

    @Test
    void anIdlePollEndsWithAnEmptyPageAndAWaitingPollWakesForAChange() throws Exception {
        try (LocalServices services = new LocalServices(data.resolve("b"));
                HttpThreadFeed feed = services.threadFeed()) {
            RawHttp raw = new RawHttp(services.uri(), LocalServices.CREDENTIAL);
            String head = ok(feed.list()).cursor();
            ThreadEventPage heartbeat = ok(feed.events(Optional.of(head), 20));
            assertEquals(List.of(), heartbeat.events());
            assertEquals(head, heartbeat.cursor());
            assertFalse(heartbeat.more());

            CompletableFuture<FacadeResult<ThreadEventPage>> waiting =
                    CompletableFuture.supplyAsync(() -> feed.events(Optional.of(head), 4_000));
            // The poll may be answered before or after it starts waiting; either way the change is on its page.
            change(raw, "t2", "{\"interactionMode\": \"default\"}");
            ThreadEventPage woken = ok(waiting.get());
            assertEquals(List.of("t2"), woken.events().stream().map(ThreadEvent::threadId).toList());
        }
    }

    @Test
    void pagesAreCutAtOneHundredEventsAndSayThereIsMore() {
        try (LocalServices services = new LocalServices(data.resolve("c"));
                HttpThreadFeed feed = services.threadFeed()) {
            RawHttp raw = new RawHttp(services.uri(), LocalServices.CREDENTIAL);
            String start = ok(feed.list()).cursor();
            for (int i = 0; i < 101; i++) {
                change(raw, "t3", "{\"archived\": " + (i % 2 == 0) + "}");
            }
            ThreadEventPage first = ok(feed.events(Optional.of(start), 0));
            assertEquals(100, first.events().size());
            assertTrue(first.more());
            ThreadEventPage second = ok(feed.events(Optional.of(first.cursor()), 0));
            assertEquals(1, second.events().size());
            assertFalse(second.more());
            assertTrue(ThreadCursor.parse(first.cursor()).orElseThrow()
                    .isFollowedBy(ThreadCursor.parse(second.events().get(0).cursor()).orElseThrow()));
        }
    }

    @Test
    void aCursorTheFeedNoLongerHoldsIsGoneAndAMalformedOneIsRefused() {
        try (LocalServices services = new LocalServices(data.resolve("d"),
                Map.of("gatehouse.local.host-events-kept", 3)); HttpThreadFeed feed = services.threadFeed()) {
            RawHttp raw = new RawHttp(services.uri(), LocalServices.CREDENTIAL);
            String start = ok(feed.list()).cursor();
            String history = ThreadCursor.parse(start).orElseThrow().history();
            change(raw, "t3", "{\"archived\": true}");
            String kept = ok(feed.list()).cursor();
            for (int i = 0; i < 3; i++) {
                change(raw, "t3", "{\"archived\": " + (i % 2 == 1) + "}");
            }
            assertEquals(3, ok(feed.events(Optional.of(kept), 0)).events().size(), "the oldest kept still follows");
            for (String gone : List.of(start, "other:1", "1", history + ":99")) {
                FacadeResult<ThreadEventPage> answer = feed.events(Optional.of(gone), 0);
                assertTrue(answer instanceof FacadeResult.Failed<ThreadEventPage> failed
                        && ThreadFeed.cursorGone(failed.error()), gone + ": " + answer);
            }
            RawHttp.Answer goneAnswer = raw.get("/host/v1/events?after=other:1");
            assertEquals(410, goneAnswer.status());
            assertEquals(List.of(), ContractSchemas.errors("host", "Error", goneAnswer.body()));
            for (String malformed : List.of(history + ":x", history + ":", "x:-1")) {
                ServiceError error = assertInstanceOf(FacadeResult.Failed.class,
                        feed.events(Optional.of(malformed), 0)).error();
                assertEquals("bad_cursor", assertInstanceOf(ServiceError.Rejected.class, error).serviceCode(),
                        malformed);
            }
        }
    }

    @Test
    void aRestartKeepsTheHistoryAndANewDataDirectoryStartsAnother() {
        String cursor;
        try (LocalServices first = new LocalServices(data.resolve("e")); HttpThreadFeed feed = first.threadFeed()) {
            cursor = ok(feed.list()).cursor();
        }
        try (LocalServices again = new LocalServices(data.resolve("e")); HttpThreadFeed feed = again.threadFeed()) {
            change(new RawHttp(again.uri(), LocalServices.CREDENTIAL), "t1", "{\"runtimeMode\": \"auto\"}");
            ThreadEventPage page = ok(feed.events(Optional.of(cursor), 0));
            assertEquals(List.of("modes_changed"), page.events().stream().map(ThreadEvent::type).toList());
        }
        try (LocalServices other = new LocalServices(data.resolve("f")); HttpThreadFeed feed = other.threadFeed()) {
            String fresh = ok(feed.list()).cursor();
            assertNotEquals(ThreadCursor.parse(cursor).orElseThrow().history(),
                    ThreadCursor.parse(fresh).orElseThrow().history());
            FacadeResult<ThreadEventPage> answer = feed.events(Optional.of(cursor), 0);
            assertTrue(answer instanceof FacadeResult.Failed<ThreadEventPage> failed
                    && ThreadFeed.cursorGone(failed.error()), String.valueOf(answer));
        }
    }

    @Test
    void anAdminChangeIsCheckedLikeAnyOther() {
        try (LocalServices services = new LocalServices(data.resolve("g"))) {
            RawHttp raw = new RawHttp(services.uri(), LocalServices.CREDENTIAL);
            assertEquals(404, change(raw, "t-none", "{\"archived\": true}").status());
            assertEquals(400, change(raw, "t1", "{\"runtimeMode\": \"everything\"}").status());
            assertEquals(400, change(raw, "t1", "{\"archived\": \"yes\"}").status());
            JsonNode thread = read(change(raw, "t1", "{}").body()).get("thread");
            assertEquals("full-access", thread.get("runtimeMode").textValue(), "nothing asked, nothing changed");
        }
    }

    private static RawHttp.Answer change(RawHttp raw, String threadId, String body) {
        return raw.patch("/host/v1/admin/threads/" + threadId, body);
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T ok(FacadeResult<T> result) {
        assertInstanceOf(FacadeResult.Ok.class, result, result::toString);
        return ((FacadeResult.Ok<T>) result).value();
    }
}
