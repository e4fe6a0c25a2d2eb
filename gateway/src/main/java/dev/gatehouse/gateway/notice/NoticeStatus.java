package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.ServiceError;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How notice consumption is doing, for readiness detail, {@code GET /admin/notices} and the log: per stream
 * ({@code project} notices, {@code host} thread events) the last outcome ({@code ok}, or a docs/domain.md §8 kind such
 * as {@code authentication}), since when, and a safe message. A credential failure shows here and deletes nothing.
 * While {@link NoticeConsumer} runs, also which replica holds the streams as this replica last saw it
 * ({@link #holdView}); reading it never asks the store.
 */
@Singleton
public class NoticeStatus {

    private static final Logger LOG = LoggerFactory.getLogger(NoticeStatus.class);

    /** One stream's state. */
    public record StreamStatus(String state, Instant since, Optional<String> detail) {
    }

    /** A stream's most recent failure, kept after it recovers: its kind, when it happened, its safe message. */
    public record LastError(String kind, Instant at, String detail) {
    }

    /**
     * Who holds the notice streams, as this replica last saw it.
     *
     * @param holder the holding replica's name; empty when none does or the store did not say
     * @param since  when this replica last saw the holder change
     */
    public record Hold(String replica, boolean holding, Optional<String> holder, Instant since) {
    }

    private final Map<String, StreamStatus> streams = new LinkedHashMap<>();
    private final Map<String, LastError> lastErrors = new LinkedHashMap<>();
    private Hold hold;

    /**
     * The stream answered. The first answer after a failure is logged (INFO), so an operator who saw the failures'
     * warnings in the log also sees when consumption resumed.
     */
    public synchronized void ok(String stream) {
        StreamStatus now = streams.get(stream);
        if (now != null && now.state().equals("ok")) {
            return;
        }
        streams.put(stream, new StreamStatus("ok", Instant.now(), Optional.empty()));
        if (now != null) {
            LOG.info("notice stream {} answers again; it failed ({}) from {}", stream, now.state(), now.since());
        }
    }

    /** The stream failed with {@code error}; an unchanged kind keeps its first time, the last error is this one. */
    public synchronized void failed(String stream, ServiceError error) {
        lastErrors.put(stream, new LastError(error.kind(), Instant.now(), error.message()));
        StreamStatus now = streams.get(stream);
        if (now == null || !now.state().equals(error.kind())) {
            streams.put(stream, new StreamStatus(error.kind(), Instant.now(), Optional.of(error.message())));
        }
    }

    /**
     * A call to the Project Service made for delivery (a work list, an ACK) failed: shown as the {@code project}
     * stream's state; a refused credential is logged as such, and deletes no session, thread or mapping.
     */
    void projectFailed(ServiceError error) {
        if (error instanceof ServiceError.Authentication) {
            LOG.warn("the Project Service refused the notice client's credential; sessions and threads are kept");
        }
        failed(NoticeDelivery.PROJECT_STREAM, error);
    }

    /** The state of one stream, if it was used. */
    public synchronized Optional<StreamStatus> stream(String stream) {
        return Optional.ofNullable(streams.get(stream));
    }

    /** Every stream used so far, by name ({@code project}, {@code host}), in the order first used. */
    public synchronized Map<String, StreamStatus> streams() {
        return new LinkedHashMap<>(streams);
    }

    /** The stream's most recent failure, also after it recovered; empty when it never failed. */
    public synchronized Optional<LastError> lastError(String stream) {
        return Optional.ofNullable(lastErrors.get(stream));
    }

    /** True when no stream reports a failure. */
    public synchronized boolean healthy() {
        return streams.values().stream().allMatch(s -> s.state().equals("ok"));
    }

    /**
     * {@code {<stream>: {state, since, detail?, lastError?: {kind, at, detail}}}}, for readiness detail and the admin
     * status; {@code lastError} is the stream's most recent failure, kept after it recovered.
     */
    public synchronized Map<String, Object> view() {
        Map<String, Object> view = new LinkedHashMap<>();
        streams.forEach((name, s) -> {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("state", s.state());
            one.put("since", s.since().toString());
            s.detail().ifPresent(d -> one.put("detail", d));
            LastError last = lastErrors.get(name);
            if (last != null) {
                Map<String, Object> error = new LinkedHashMap<>();
                error.put("kind", last.kind());
                error.put("at", last.at().toString());
                error.put("detail", last.detail());
                one.put("lastError", error);
            }
            view.put(name, one);
        });
        return view;
    }

    /** This replica ({@code replica}) holds the streams, or saw {@code holder} (empty: none, or unknown) hold them. */
    public synchronized void hold(String replica, Optional<String> holder) {
        boolean holding = holder.filter(replica::equals).isPresent();
        if (hold == null || hold.holding() != holding || !hold.holder().equals(holder)) {
            hold = new Hold(replica, holding, holder, Instant.now());
        }
    }

    /** The hold as last seen, empty while the consumer does not run. */
    public synchronized Optional<Hold> hold() {
        return Optional.ofNullable(hold);
    }

    /**
     * {@code {replica, holding, holder?, since}} ({@code holder} absent when no replica holds the streams or the store
     * did not answer), for {@code /health} and the admin status; empty while the consumer does not run.
     */
    public synchronized Map<String, Object> holdView() {
        Map<String, Object> view = new LinkedHashMap<>();
        if (hold != null) {
            view.put("replica", hold.replica());
            view.put("holding", hold.holding());
            hold.holder().ifPresent(h -> view.put("holder", h));
            view.put("since", hold.since().toString());
        }
        return view;
    }
}
