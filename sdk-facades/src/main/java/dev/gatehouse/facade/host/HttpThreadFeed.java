package dev.gatehouse.facade.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.Fields;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.Requests;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.Undecodable;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * {@link ThreadFeed} over the host HTTP contract: {@code GET /host/v1/threads} (its {@code cursor} included) and
 * {@code GET /host/v1/events?after=&waitMs=}. Both are reads: sent again once when the connection was refused, within
 * the deadline, which must be longer than the longest {@code waitMillis} asked for.
 */
public final class HttpThreadFeed implements ThreadFeed, AutoCloseable {

    private static final String BASE = "/host/v1";
    private static final String THREAD = "thread";

    private final ServiceClient client;
    private final ReplyMapper mapper;

    public HttpThreadFeed(ServiceClient client, ReplyMapper mapper) {
        this.client = client;
        this.mapper = mapper;
    }

    @Override
    public FacadeResult<ThreadListing> list() {
        return mapper.read(client.read(() -> Requests.get(BASE + "/threads")), THREAD, body -> new ThreadListing(
                Fields.list(body, "threads", HostProjections::state), Fields.text(body, "cursor")));
    }

    @Override
    public FacadeResult<ThreadEventPage> events(Optional<String> after, long waitMillis) {
        String uri = BASE + "/events?waitMs=" + waitMillis + after.map(a -> "&after=" + Requests.query(a)).orElse("");
        return mapper.read(client.read(() -> Requests.get(uri)), THREAD, body -> new ThreadEventPage(
                Fields.list(body, "events", HttpThreadFeed::event), Fields.text(body, "cursor"),
                Fields.bool(body, "more")));
    }

    private static ThreadEvent event(JsonNode node) throws Undecodable {
        String threadId = Fields.text(node, "threadId");
        JsonNode shell = node.get("thread");
        return new ThreadEvent(Fields.text(node, "cursor"), threadId, Fields.text(node, "type"),
                Fields.optionalText(node, "runId"), instant(Fields.text(node, "at")),
                shell == null || shell.isNull() ? Optional.empty()
                        : Optional.of(HostProjections.shell(threadId, Fields.object(node, "thread"))));
    }

    private static Instant instant(String text) throws Undecodable {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new Undecodable("expected an RFC 3339 time in 'at'");
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
