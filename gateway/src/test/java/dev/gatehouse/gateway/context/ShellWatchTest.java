package dev.gatehouse.gateway.context;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.host.HttpHostFacade;
import dev.gatehouse.facade.host.HttpThreadFeed;
import dev.gatehouse.facade.host.ThreadEventPage;
import dev.gatehouse.facade.host.ThreadFeed;
import dev.gatehouse.facade.host.ThreadListing;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.ServiceEndpoint;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.ThreadShell.Lookup;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The thread-shell PIP with its watch (docs/domain.md §1; {@link ShellWatch}) against a WireMock host speaking the
 * thread events contract, driven one list or poll at a time with an injected clock: a change the host reported is
 * what the next lookup answers; a cut, a stall past the bound, a cursor the host no longer holds and a page that does
 * not continue each stop the watch from answering until it is heard from again (reads go to the host meanwhile), and
 * the last two make it list again; a read that raced with a page is not kept; a failed read stays what it was.
 */
class ShellWatchTest {

    private static final Duration BOUND = Duration.ofMillis(250);
    private static final String FULL = shell("full-access", "default", false, "run-1", "p-1");

    private final WireMockServer host = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private HttpThreadFeed feed;
    private HttpHostFacade facade;

    @BeforeEach
    void start() {
        host.start();
        ServiceEndpoint endpoint = ServiceEndpoint.of("host", URI.create(host.baseUrl()), "credential",
                Duration.ofSeconds(5));
        feed = new HttpThreadFeed(new ServiceClient(endpoint), new ReplyMapper("host", 5_000));
        facade = new HttpHostFacade(new ServiceClient(endpoint), new ReplyMapper("host", 5_000));
        thread("t1", FULL);
        listing("h:0", "t1", FULL);
    }

    @AfterEach
    void stop() {
        feed.close();
        facade.close();
        host.stop();
    }

    @Test
    void aRunThatEndsOrModesThatNarrowAreAnsweredOnTheNextLookupAfterTheHostReportedThem() {
        ShellWatch watch = watch(BOUND);
        ThreadShells shells = shells(watch);
        assertEquals(Duration.ZERO, watch.step());
        assertEquals(found(true, "full-access", "default"), shells.shell("t1"), "not kept yet: read, then kept");
        assertEquals(found(true, "full-access", "default"), shells.shell("t1"));
        assertEquals(1, reads("t1"), "the second lookup came from the watch");

        page("h:0", "h:1", false, event("h:1", "t1", "run_ended", shell("full-access", "default", false, null, "p-1")));
        watch.step();
        assertEquals(found(false, "full-access", "default"), shells.shell("t1"), "the run ended");
        page("h:1", "h:2", false,
                event("h:2", "t1", "modes_changed", shell("approval-required", "plan", false, null, "p-1")));
        watch.step();
        assertEquals(found(false, "approval-required", "plan"), shells.shell("t1"), "the modes narrowed");
        assertEquals(1, reads("t1"));
        assertEquals("watching", watch.view().get("state"));
        assertEquals(2L, watch.view().get("eventsApplied"));
    }

    @Test
    void aWatchCutFallsBackToReadsAndResumesFromItsCursor() {
        ShellWatch watch = watch(BOUND);
        ThreadShells shells = shells(watch);
        watch.step();
        shells.shell("t1");
        host.stubFor(events("h:0").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        assertTrue(watch.step().compareTo(Duration.ZERO) > 0, "a pause before the next try");
        assertEquals("disconnected", watch.view().get("state"));
        shells.shell("t1");
        assertEquals(2, reads("t1"), "read from the host while disconnected");

        page("h:0", "h:1", false, event("h:1", "t1", "archived", shell("full-access", "default", true, "run-1",
                "p-1")));
        watch.step();
        assertEquals(ThreadShell.found(true, true, Optional.of("p-1"), "full-access", "default"), shells.shell("t1"));
        assertEquals(2, reads("t1"), "resumed: answered from the watch again");
        assertEquals(1, lists(), "resumed from its cursor, not listed again");
    }

    @Test
    void aSilentStallPastTheBoundReadsFromTheHost() {
        ShellWatch watch = watch(BOUND);
        ThreadShells shells = shells(watch);
        watch.step();
        shells.shell("t1");
        now.addAndGet(BOUND.toNanos());
        shells.shell("t1");
        assertEquals(1, reads("t1"), "heard exactly the bound ago: still answered from the watch");
        now.incrementAndGet();
        shells.shell("t1");
        assertEquals(2, reads("t1"), "a nanosecond past the bound: read from the host");
        assertEquals("stale", watch.view().get("state"));

        page("h:0", "h:0", false);
        watch.step();
        shells.shell("t1");
        assertEquals(2, reads("t1"), "a heartbeat: answered from the watch again");
    }

    @Test
    void anAnswerThatTookLongerThanTheBoundDoesNotCountAsHeard() {
        ShellWatch watch = new ShellWatch(slow(BOUND.plusNanos(1)), properties(BOUND, 100), now::get,
                Clock.systemUTC(), new SimpleMeterRegistry());
        ThreadShells shells = shells(watch);
        watch.step();
        shells.shell("t1");
        shells.shell("t1");
        assertEquals(2, reads("t1"), "heard as of when the list was asked for, which is past the bound now");
    }

    /**
     * An idle watch whose host answers every heartbeat late (the full wait, then a delay each way, as when the host
     * or the watch's thread waits for a core) keeps answering at every moment: looked up just before each answer,
     * when its news is oldest (from the send of the poll before, two waits and two trips ago), no shell is read from
     * the host. Delays of up to a quarter of the bound for the two trips together.
     */
    @ParameterizedTest
    @ValueSource(longs = {0, 1, 20, 62})
    void heartbeatsAnsweredLateStillKeepTheWatchWithinTheBound(long delayMillis) {
        AtomicReference<ThreadShells> lookups = new AtomicReference<>();
        List<Boolean> readFromHost = new ArrayList<>();
        ThreadFeed late = new ThreadFeed() {
            @Override
            public FacadeResult<ThreadListing> list() {
                return feed.list();
            }

            @Override
            public FacadeResult<ThreadEventPage> events(Optional<String> after, long waitMillis) {
                now.addAndGet(TimeUnit.MILLISECONDS.toNanos(waitMillis + delayMillis));
                int before = reads("t1");
                lookups.get().shell("t1");
                readFromHost.add(reads("t1") > before);
                return feed.events(after, waitMillis);
            }
        };
        ShellWatch watch = new ShellWatch(late, properties(BOUND, 100), now::get, Clock.systemUTC(),
                new SimpleMeterRegistry());
        lookups.set(shells(watch));
        page("h:0", "h:0", false);
        watch.step();
        lookups.get().shell("t1");
        for (int i = 0; i < 8; i++) {
            watch.step();
        }
        assertEquals(List.of(false, false, false, false, false, false, false, false), readFromHost);
        assertEquals(1, reads("t1"), "only the first lookup, before the watch held the thread, read from the host");
    }

    @Test
    void aPageCutAtItsSizeDoesNotCountAsHeard() {
        ShellWatch watch = watch(BOUND);
        ThreadShells shells = shells(watch);
        watch.step();
        shells.shell("t1");
        now.addAndGet(BOUND.toNanos() + 1);
        String ended = shell("full-access", "default", false, null, "p-1");
        thread("t1", ended);
        page("h:0", "h:1", true, event("h:1", "t1", "run_ended", ended));
        watch.step();
        assertEquals(found(false, "full-access", "default"), shells.shell("t1"));
        assertEquals(2, reads("t1"), "more events are waiting: not up to date, read from the host");
        page("h:1", "h:1", false);
        watch.step();
        shells.shell("t1");
        assertEquals(2, reads("t1"), "caught up");
    }

    @Test
    void aCursorTheHostNoLongerHoldsIsListedAgain() {
        ShellWatch watch = watch(BOUND);
        ThreadShells shells = shells(watch);
        thread("t2", FULL);
        watch.step();
        shells.shell("t1");
        shells.shell("t2");
        host.stubFor(events("h:0").willReturn(aResponse().withStatus(410).withHeader("Content-Type",
                "application/json").withBody("{\"code\": \"cursor_expired\", \"message\": \"gone\"}")));
        watch.step();
        assertEquals("disconnected", watch.view().get("state"));
        assertEquals(Optional.empty(), watch.cursor(), "lists next");
        shells.shell("t1");
        assertEquals(2, reads("t1"), "not answered from the watch until it listed again");

        listing("g:7", "t1", shell("auto", "plan", false, "run-1", "p-1"));
        watch.step();
        assertEquals(Optional.of("g:7"), watch.cursor());
        assertEquals(found(true, "auto", "plan"), shells.shell("t1"), "refreshed from the list");
        assertEquals(2, reads("t1"));
        host.stubFor(WireMock.get(urlPathEqualTo("/host/v1/threads/t2")).willReturn(notFound()));
        assertEquals(ThreadShell.of(Lookup.NOT_FOUND), shells.shell("t2"), "gone from the list: dropped, read");
        assertEquals(2, lists());
    }

    static Stream<Arguments> gaps() {
        String ended = shell("full-access", "default", false, null, "p-1");
        return Stream.of(
                Arguments.of("an event skipped", new String[] {event("h:2", "t1", "run_ended", ended)}, "h:2"),
                Arguments.of("another history", new String[] {event("x:1", "t1", "run_ended", ended)}, "x:1"),
                Arguments.of("an event again", new String[] {event("h:0", "t1", "run_ended", ended)}, "h:0"),
                Arguments.of("a gap inside the page", new String[] {event("h:1", "t1", "run_ended", ended),
                    event("h:3", "t1", "run_ended", ended)}, "h:3"),
                Arguments.of("a cursor past the last event", new String[] {event("h:1", "t1", "run_ended", ended)},
                        "h:2"),
                Arguments.of("an empty page that moved", new String[0], "h:5"),
                Arguments.of("an unreadable cursor", new String[] {event("h-1", "t1", "run_ended", ended)}, "h-1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gaps")
    void aPageThatDoesNotContinueWhereTheWatchStoodIsAGapAndListsAgain(String kind, String[] events, String cursor) {
        ShellWatch watch = watch(BOUND);
        ThreadShells shells = shells(watch);
        watch.step();
        shells.shell("t1");
        page("h:0", cursor, false, events);
        watch.step();
        assertEquals(Optional.empty(), watch.cursor(), kind + ": lists next");
        shells.shell("t1");
        assertEquals(2, reads("t1"), kind + ": read from the host until listed again");
        watch.step();
        assertEquals(Optional.of("h:0"), watch.cursor());
        assertEquals(2, lists());
    }

    @Test
    void aReadThatRacedWithAPageIsNotKept() {
        ShellWatch watch = watch(BOUND);
        ThreadShells shells = shells(watch);
        watch.step();
        long before = watch.generation();
        page("h:0", "h:1", false, event("h:1", "t2", "run_ended", shell("auto", "plan", false, null, "p-2")));
        watch.step();
        watch.offer("t1", found(true, "full-access", "default"), before);
        shells.shell("t1");
        assertEquals(1, reads("t1"), "the racing read was not kept: this lookup read");
        shells.shell("t1");
        assertEquals(1, reads("t1"), "a read with no page between is kept");
    }

    @Test
    void aReadThatFailsStaysUnavailableAndIsNotKept() {
        ShellWatch watch = watch(BOUND);
        ThreadShells shells = shells(watch);
        watch.step();
        host.stubFor(WireMock.get(urlPathEqualTo("/host/v1/threads/t9")).willReturn(aResponse().withStatus(503)));
        assertEquals(ThreadShell.of(Lookup.UNAVAILABLE), shells.shell("t9"));
        assertEquals(ThreadShell.of(Lookup.UNAVAILABLE), shells.shell("t9"));
        assertEquals(2, reads("t9"));
        host.stubFor(WireMock.get(urlPathEqualTo("/host/v1/threads/t9")).willReturn(notFound()));
        assertEquals(ThreadShell.of(Lookup.NOT_FOUND), shells.shell("t9"));
    }

    @Test
    void theWatchKeepsAtMostMaxThreads() {
        ShellWatch watch = new ShellWatch(feed, properties(BOUND, 2), now::get, Clock.systemUTC(),
                new SimpleMeterRegistry());
        ThreadShells shells = shells(watch);
        watch.step();
        for (String id : List.of("t1", "t2", "t3")) {
            thread(id, FULL);
            shells.shell(id);
        }
        assertEquals(2L, watch.view().get("threads"));
    }

    @Test
    void offEveryShellIsReadFromTheHost() {
        ShellWatch watch = watch(Duration.ZERO);
        ThreadShells shells = shells(watch);
        shells.shell("t1");
        shells.shell("t1");
        assertEquals(2, reads("t1"));
        assertEquals("off", watch.view().get("state"));
    }

    @Test
    void theLagFromTheHostsChangeToTheWatchIsMeasured() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Instant at = Instant.parse("2026-07-28T10:00:00Z");
        ShellWatch watch = new ShellWatch(feed, properties(BOUND, 100), now::get,
                Clock.fixed(at.plusMillis(3), java.time.ZoneOffset.UTC), meters);
        watch.step();
        page("h:0", "h:1", false, event("h:1", "t1", "run_ended", shell("full-access", "default", false, null,
                "p-1")).replace("2026-07-28T09:59:59Z", at.toString()));
        watch.step();
        assertEquals(3.0, meters.get(ShellWatch.LAG).timer().max(java.util.concurrent.TimeUnit.MILLISECONDS));
        assertEquals(1.0, meters.get(ShellWatch.RELISTS).tag("reason", "start").counter().count());
    }

    private ShellWatch watch(Duration bound) {
        return new ShellWatch(feed, properties(bound, 100), now::get, Clock.systemUTC(), new SimpleMeterRegistry());
    }

    private ThreadShells shells(ShellWatch watch) {
        return new ThreadShells(facade, watch, new SimpleMeterRegistry());
    }

    /** The feed, with the injected clock moving on by {@code takes} while each list or poll is under way. */
    private ThreadFeed slow(Duration takes) {
        return new ThreadFeed() {
            @Override
            public FacadeResult<ThreadListing> list() {
                FacadeResult<ThreadListing> answer = feed.list();
                now.addAndGet(takes.toNanos());
                return answer;
            }

            @Override
            public FacadeResult<ThreadEventPage> events(Optional<String> after, long waitMillis) {
                FacadeResult<ThreadEventPage> answer = feed.events(after, waitMillis);
                now.addAndGet(takes.toNanos());
                return answer;
            }
        };
    }

    private static HostWatchProperties properties(Duration bound, int maxThreads) {
        HostWatchProperties properties = new HostWatchProperties();
        properties.setMaxStaleness(bound);
        properties.setMaxThreads(maxThreads);
        return properties;
    }

    private static ThreadShell found(boolean activeRun, String runtime, String interaction) {
        return ThreadShell.found(false, activeRun, Optional.of("p-1"), runtime, interaction);
    }

    private int reads(String threadId) {
        return host.countRequestsMatching(getRequestedFor(urlPathEqualTo("/host/v1/threads/" + threadId)).build())
                .getCount();
    }

    private int lists() {
        return host.countRequestsMatching(getRequestedFor(urlPathEqualTo("/host/v1/threads")).build()).getCount();
    }

    private void thread(String id, String shell) {
        host.stubFor(WireMock.get(urlPathEqualTo("/host/v1/threads/" + id)).willReturn(ok(
                "{\"threadId\": \"" + id + "\", \"title\": \"t\", " + shell.substring(1, shell.length() - 1)
                        + ", \"messages\": []}")));
    }

    private void listing(String cursor, String id, String shell) {
        host.stubFor(WireMock.get(urlPathEqualTo("/host/v1/threads")).willReturn(ok("{\"threads\": [{\"threadId\": \""
                + id + "\", \"title\": \"t\", " + shell.substring(1, shell.length() - 1) + "}], \"cursor\": \""
                + cursor + "\"}")));
    }

    private void page(String after, String cursor, boolean more, String... events) {
        host.stubFor(events(after).willReturn(ok("{\"events\": [" + String.join(", ", events) + "], \"cursor\": \""
                + cursor + "\", \"more\": " + more + "}")));
    }

    private static com.github.tomakehurst.wiremock.client.MappingBuilder events(String after) {
        return WireMock.get(urlPathEqualTo("/host/v1/events")).withQueryParam("after", equalTo(after));
    }

    private static String event(String cursor, String threadId, String type, String shell) {
        return "{\"cursor\": \"" + cursor + "\", \"threadId\": \"" + threadId + "\", \"type\": \"" + type
                + "\", \"at\": \"2026-07-28T09:59:59Z\", \"thread\": " + shell + "}";
    }

    private static String shell(String runtime, String interaction, boolean archived, String run, String provider) {
        return "{\"archived\": " + archived + ", \"runtimeMode\": \"" + runtime + "\", \"interactionMode\": \""
                + interaction + "\", \"activeRunId\": " + (run == null ? "null" : "\"" + run + "\"")
                + ", \"providerInstanceId\": \"" + provider + "\", \"projectId\": \"demo\"}";
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder ok(String body) {
        return aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                .withHeader("Api-Version", "1").withBody(body);
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder notFound() {
        return aResponse().withStatus(404).withHeader("Content-Type", "application/json")
                .withBody("{\"code\": \"thread_not_found\", \"message\": \"no such thread\"}");
    }
}
