package dev.gatehouse.gateway.audit.shipping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.audit.DecisionLogConfiguration;
import dev.gatehouse.gateway.audit.DecisionLogSink;
import dev.gatehouse.gateway.audit.LogFiles;
import dev.gatehouse.facts.PolicyJson;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ships the decision log to an OPA-compatible decision-log service, the way OPA's {@code decision_logs} plugin does:
 * {@code POST <url>} with {@code Content-Type: application/json}, {@code Content-Encoding: gzip} and a JSON array of
 * events ({@link OpaDecisionEvent}). Off unless {@code gatehouse.audit.shipping.url} is set.
 *
 * <h2>Path of a record</h2>
 * The shipper reads the decision log's own files: from a cursor ({@link ShipCursor}, kept in
 * {@code <stem>.shipped.json} beside the log) through the rotated files in order into the live file, never past
 * what the writer reported written ({@link LogTail}). One thread takes up to {@code batch-max-records} records of
 * one file (waiting at most {@code batch-delay} for a batch of the live file to fill), POSTs them with the values
 * their stand-ins name (each once per POST, from the file's values file), and moves the cursor past them when the
 * service answers 2xx. So nothing is held in memory or copied aside: a stop or crash resumes at the cursor, and
 * the writer never waits for the shipper. A rotated file the cursor has passed is <em>shipped</em>
 * ({@link #shipped}): the decision log may delete it before its retention age; one it has not passed stays until
 * its retention age, or until the space budget forces it out, loudly.
 *
 * <h2>Failures</h2>
 * A timeout ({@code timeout}), a refused connection, a 5xx, 408 or 429 keeps the cursor and waits before the next
 * try: {@code min-backoff}, doubled per consecutive failure up to {@code max-backoff}. Delivery is at least once (a
 * batch whose answer was lost is sent again; {@code decision_id} is the key to drop duplicates). Any other 4xx means
 * the service will never take that batch: the cursor moves past it and its records are counted as dropped
 * ({@code rejected}). A line that is not a JSON record is skipped and counted ({@code unreadable}). A file deleted
 * by its retention age or the budget before the cursor reached it is logged and skipped.
 *
 * <h2>Meters</h2>
 * {@value #SHIPPED} (records the service took), {@value #DROPPED} tagged {@code reason} ({@code rejected},
 * {@code unreadable}), {@value #UPLOADS} tagged {@code outcome} ({@code 2xx|4xx|5xx|timeout|error}),
 * {@value #PENDING} (bytes of the log not yet shipped).
 */
@Singleton
@Requires(property = ShippingConfiguration.PREFIX + ".url", pattern = ".+")
public class DecisionLogShipper implements DecisionLogSink {

    public static final String SHIPPED = "gatehouse.decision_log.shipped";
    public static final String DROPPED = "gatehouse.decision_log.dropped";
    public static final String UPLOADS = "gatehouse.decision_log.uploads";
    public static final String PENDING = "gatehouse.decision_log.pending";

    private static final Logger LOG = LoggerFactory.getLogger(DecisionLogShipper.class);
    /** How often an idle shipper looks at the files even without being told of a write. */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int ATTEMPTS = 3;

    private final ShippingConfiguration configuration;
    private final Path live;
    private final Path cursorFile;
    private final Map<String, String> labels;
    private final MeterRegistry meters;
    private final HttpClient http;
    private final LogFollower follower;
    private final AtomicLong pending = new AtomicLong();

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}; its name follows the file through rotations. */
    private ShipCursor cursor;

    /** Touched by the shipper thread only. */
    private Duration backoff = Duration.ZERO;
    private long nextAttemptNanos = System.nanoTime();

    @Inject
    public DecisionLogShipper(ShippingConfiguration configuration, DecisionLogConfiguration log, MeterRegistry meters,
            @Value("${gatehouse.version:0.1.0}") String version,
            @Value("${gatehouse.environment-id:local}") String environment) throws IOException {
        this(configuration, log.file(), Map.of("id", UUID.randomUUID().toString(), "app", "gatehouse",
                "version", version, "environment", environment), meters);
    }

    /**
     * @param live   the decision log's live file
     * @param labels OPA's {@code labels} put on every event
     * @throws IOException when the cursor file exists and cannot be read
     */
    public DecisionLogShipper(ShippingConfiguration configuration, Path live, Map<String, String> labels,
            MeterRegistry meters) throws IOException {
        this.configuration = configuration;
        this.live = live.toAbsolutePath();
        this.cursorFile = LogFiles.shippedFile(this.live);
        this.labels = Map.copyOf(labels);
        this.meters = meters;
        this.cursor = ShipCursor.load(cursorFile);
        this.http = HttpClient.newBuilder().connectTimeout(configuration.getTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        Gauge.builder(PENDING, pending, AtomicLong::get).baseUnit("bytes")
                .description("decision-log bytes not yet taken by the service").register(meters);
        this.follower = new LogFollower(this.live, "gatehouse-decision-shipper", this::run, IDLE_NANOS,
                configuration::getBatchMaxRecords, configuration::getBatchDelay);
    }

    /** Starts the shipper thread: it resumes at the cursor. */
    @PostConstruct
    public void start() {
        follower.start();
    }

    /** Stops the thread; waits at most the POST timeout plus one second. The cursor is already on disk. */
    @PreDestroy
    public void close() {
        follower.close(configuration.getTimeout().plusSeconds(1));
    }

    @Override
    public void written(String firstId, long liveBytes) {
        follower.written(firstId, liveBytes);
    }

    @Override
    public void rotated(String firstId, Path rotated) {
        lock.lock();
        try {
            if (firstId != null && firstId.equals(cursor.firstId())) {
                cursor = cursor.renamed(rotated.getFileName().toString());
            }
        } finally {
            lock.unlock();
        }
        follower.signal();
    }

    /**
     * Whether the cursor has passed the rotated file: it is in a later file. The writer tells {@link #rotated}
     * before it asks, and the shipper names its cursor's file under the same lock, so the name compared is current.
     */
    @Override
    public boolean shipped(Path rotated, String firstId) {
        lock.lock();
        try {
            if (cursor.firstId() == null || cursor.name() == null || cursor.firstId().equals(firstId)) {
                return false;
            }
            return cursor.name().equals(live.getFileName().toString())
                    || rotated.getFileName().toString().compareTo(cursor.name()) < 0;
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (!follower.closed()) {
            try {
                long due = nextAttemptNanos - System.nanoTime();
                if (due > 0) {
                    follower.await(due);
                    continue;
                }
                round();
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                LOG.error("decision-log shipper failed a round; retrying in {}: {}", retryLater(), e.toString());
            }
        }
    }

    /** One look at the files: sends a batch, moves to the next file, or waits. */
    private void round() throws IOException, InterruptedException {
        Optional<Path> file = locate();
        follower.round(file, current(), () -> { }, this::next, this::send);
    }

    private ShipCursor current() {
        lock.lock();
        try {
            return cursor;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The file the cursor is in, found by its first record; names the cursor's file by it. A cursor whose file is
     * gone moves to the file after it (the oldest there is when that cannot be told), saying so.
     */
    private Optional<Path> locate() throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            List<Path> files = follower.files();
            Optional<Path> found = Optional.empty();
            long offset = 0;
            lock.lock();
            try {
                if (files.isEmpty()) {
                    return Optional.empty();
                }
                if (cursor.firstId() == null) {
                    found = Optional.of(files.get(0));
                } else {
                    for (Path file : files) {
                        if (cursor.firstId().equals(follower.firstId(file))) {
                            found = Optional.of(file);
                            offset = cursor.offset();
                            break;
                        }
                    }
                }
                found.ifPresent(file -> cursor = cursor.renamed(file.getFileName().toString()));
            } finally {
                lock.unlock();
            }
            if (found.isPresent()) {
                measure(files, found.get(), offset);
                return found;
            }
        }
        return skipGone();
    }

    /** The cursor's file was deleted before it was shipped: continue after it. */
    private Optional<Path> skipGone() throws IOException {
        List<Path> files = follower.files();
        lock.lock();
        try {
            String gone = cursor.name();
            Path after = files.stream()
                    .filter(f -> gone == null || !LogFiles.isRotatedName(live, gone)
                            || f.getFileName().toString().compareTo(gone) > 0)
                    .findFirst().orElse(null);
            LOG.warn("decision-log file {} was deleted before all its records were shipped (from byte {} on);"
                    + " shipping goes on with {}", gone, cursor.offset(), after == null ? "the next file" : after);
            cursor = after == null ? ShipCursor.START
                    : new ShipCursor(after.getFileName().toString(), follower.firstId(after), 0);
            save();
            return Optional.empty();
        } finally {
            lock.unlock();
        }
    }

    /** Moves the cursor to the start of the file after {@code done}; false when there is none yet. */
    private boolean next(Path done) throws IOException {
        Optional<ShipCursor> start = follower.startOfNext(done);
        if (start.isEmpty()) {
            return false;
        }
        lock.lock();
        try {
            cursor = start.get();
            save();
        } finally {
            lock.unlock();
        }
        return true;
    }

    /** Bytes from the cursor to the end of the log. */
    private void measure(List<Path> files, Path from, long offset) {
        long bytes = -offset;
        for (Path file : files.subList(files.indexOf(from), files.size())) {
            try {
                bytes += Files.size(file);
            } catch (IOException e) {
                // deleted meanwhile: nothing of it is pending
            }
        }
        pending.set(Math.max(0, bytes));
    }

    /** POSTs one batch of {@code file}; moves the cursor past it when the service took it (or refused it for good). */
    private void send(Path file, LogTail.Chunk chunk) throws IOException {
        ArrayNode events = PolicyJson.MAPPER.createArrayNode();
        int unreadable = 0;
        try (ValueLookup values = ValueLookup.open(live, chunk.firstId())) {
            Set<String> carried = new HashSet<>();
            for (byte[] line : chunk.lines()) {
                JsonNode record;
                try {
                    record = PolicyJson.MAPPER.readTree(line);
                } catch (IOException e) {
                    unreadable++;
                    continue;
                }
                if (!record.isObject()) {
                    unreadable++;
                    continue;
                }
                events.add(event(record, values, carried));
            }
        }
        if (unreadable > 0) {
            dropped("unreadable", unreadable);
        }
        if (events.isEmpty()) {
            advance(file, chunk);
            return;
        }
        String outcome;
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(configuration.getUrl().orElseThrow())
                    .timeout(configuration.getTimeout())
                    .header("Content-Type", "application/json")
                    .header("Content-Encoding", "gzip")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(gzip(PolicyJson.write(events)
                            .getBytes(StandardCharsets.UTF_8))));
            credential().ifPresent(token -> request.header("Authorization", "Bearer " + token));
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            outcome = (status / 100) + "xx";
            if (status / 100 == 2) {
                advance(file, chunk);
                Counter.builder(SHIPPED).description("decision-log records the decision-log service took")
                        .register(meters).increment(events.size());
                backoff = Duration.ZERO;
            } else if (status / 100 == 4 && status != 408 && status != 429) {
                LOG.error("decision-log service refused a batch of {} record(s) with {}; dropped", events.size(),
                        status);
                advance(file, chunk);
                dropped("rejected", events.size());
                backoff = Duration.ZERO;
            } else {
                LOG.warn("decision-log service answered {}; retrying in {}", status, retryLater());
            }
        } catch (HttpTimeoutException e) {
            outcome = "timeout";
            LOG.warn("decision-log POST timed out after {}; retrying in {}", configuration.getTimeout(), retryLater());
        } catch (IOException e) {
            outcome = "error";
            LOG.warn("decision-log POST failed ({}); retrying in {}", e.toString(), retryLater());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Counter.builder(UPLOADS).description("POSTs of decision-log batches by outcome").tag("outcome", outcome)
                .register(meters).increment();
    }

    /**
     * The event of one record: a reduced line's whole record comes back from the values file; the values its
     * stand-ins name go with it unless an earlier event of the batch carried them.
     */
    private ObjectNode event(JsonNode record, ValueLookup values, Set<String> carried) throws IOException {
        JsonNode whole = record;
        if (record.has("reduced")) {
            Optional<JsonNode> entry = values.entry(OpaDecisionEvent.valueKeys(record).get(0));
            if (entry.isPresent()) {
                whole = entry.get().path("json");
            }
        }
        ObjectNode event = OpaDecisionEvent.of(whole, labels);
        ArrayNode attached = PolicyJson.MAPPER.createArrayNode();
        for (String key : OpaDecisionEvent.valueKeys(whole)) {
            if (carried.add(key)) {
                values.entry(key).ifPresent(attached::add);
            }
        }
        if (!attached.isEmpty()) {
            event.set("values", attached);
        }
        return event;
    }

    /** Moves the cursor past a batch and keeps it on disk. */
    private void advance(Path file, LogTail.Chunk chunk) throws IOException {
        lock.lock();
        try {
            String name = Objects.equals(cursor.firstId(), chunk.firstId()) && cursor.name() != null
                    ? cursor.name() : file.getFileName().toString();
            cursor = new ShipCursor(name, chunk.firstId(), chunk.to());
            save();
        } finally {
            lock.unlock();
        }
        nextAttemptNanos = System.nanoTime();
    }

    /** Called with {@link #lock} held. */
    private void save() throws IOException {
        cursor.save(cursorFile);
    }

    /** Doubles the backoff (from min-backoff, up to max-backoff) and schedules the next attempt. */
    private Duration retryLater() {
        Duration doubled = backoff.isZero() ? configuration.getMinBackoff() : backoff.multipliedBy(2);
        backoff = doubled.compareTo(configuration.getMaxBackoff()) > 0 ? configuration.getMaxBackoff() : doubled;
        nextAttemptNanos = System.nanoTime() + backoff.toNanos();
        return backoff;
    }

    private Optional<String> credential() throws IOException {
        Optional<Path> file = configuration.getCredentialFile();
        return file.isEmpty() ? Optional.empty() : Optional.of(Files.readString(file.get()).strip());
    }

    private void dropped(String reason, int records) {
        Counter.builder(DROPPED).description("decision-log records that will not be shipped, by reason")
                .tag("reason", reason).register(meters).increment(records);
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        }
        return out.toByteArray();
    }
}
