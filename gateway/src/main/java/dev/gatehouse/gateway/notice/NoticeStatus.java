package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.ServiceError;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How notice consumption is doing, for readiness detail, {@code GET /admin/notices} and the log: per stream
 * ({@code project} notices, {@code host} thread events) the last outcome ({@code ok}, or a docs/domain.md §8 kind such
 * as {@code authentication}), since when, and a safe message. A credential failure shows here and deletes nothing.
 */
@Singleton
public class NoticeStatus {

    /** One stream's state. */
    public record StreamStatus(String state, Instant since, Optional<String> detail) {
    }

    private final Map<String, StreamStatus> streams = new LinkedHashMap<>();

    /** The stream answered. */
    public synchronized void ok(String stream) {
        StreamStatus now = streams.get(stream);
        if (now == null || !now.state().equals("ok")) {
            streams.put(stream, new StreamStatus("ok", Instant.now(), Optional.empty()));
        }
    }

    /** The stream failed with {@code error}; an unchanged kind keeps its first time. */
    public synchronized void failed(String stream, ServiceError error) {
        StreamStatus now = streams.get(stream);
        if (now == null || !now.state().equals(error.kind())) {
            streams.put(stream, new StreamStatus(error.kind(), Instant.now(), Optional.of(error.message())));
        }
    }

    /** The state of one stream, if it was used. */
    public synchronized Optional<StreamStatus> stream(String stream) {
        return Optional.ofNullable(streams.get(stream));
    }

    /** True when no stream reports a failure. */
    public synchronized boolean healthy() {
        return streams.values().stream().allMatch(s -> s.state().equals("ok"));
    }

    /** {@code {<stream>: {state, since, detail?}}}, for readiness detail and the admin status. */
    public synchronized Map<String, Object> view() {
        Map<String, Object> view = new LinkedHashMap<>();
        streams.forEach((name, s) -> {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("state", s.state());
            one.put("since", s.since().toString());
            s.detail().ifPresent(d -> one.put("detail", d));
            view.put(name, one);
        });
        return view;
    }
}
