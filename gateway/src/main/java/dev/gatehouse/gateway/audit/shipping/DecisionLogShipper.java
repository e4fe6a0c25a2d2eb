package dev.gatehouse.gateway.audit.shipping;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.gatehouse.gateway.audit.DecisionLogSink;
import dev.gatehouse.gateway.policy.PolicyJson;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.ByteArrayInputStream;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ships the decision log to an OPA-compatible decision-log service, the way OPA's {@code decision_logs} plugin does:
 * {@code POST <url>} with {@code Content-Type: application/json}, {@code Content-Encoding: gzip} and a JSON array of
 * events ({@link OpaDecisionEvent}). Off unless {@code gatehouse.audit.shipping.url} is set.
 *
 * <h2>Path of a record</h2>
 * {@link #written} (on the decision log's writer thread, after the line is in the local log) only puts the line on a
 * bounded in-memory buffer ({@code buffer-records}) and returns. One shipper thread takes up to
 * {@code batch-max-records} lines (waiting at most {@code batch-delay} for a batch to fill), writes them as one gzip
 * body into the spill directory, and then POSTs the oldest spilled batch; a 2xx removes it. So a batch is on disk
 * before it is sent and stays there until the service took it: batches left by a stop or crash are sent by the next
 * start, oldest first. Only lines still in memory at a crash are not shipped (the local decision log has them).
 *
 * <h2>Failures</h2>
 * A timeout ({@code timeout}), a refused connection, a 5xx, 408 or 429 keeps the batch and waits before the next try:
 * {@code min-backoff}, doubled per consecutive failure up to {@code max-backoff}. Delivery is at least once (a batch
 * whose answer was lost is sent again; {@code decision_id} is the key to drop duplicates). Any other 4xx means the
 * service will never take that batch: it is removed and its records counted as dropped ({@code rejected}).
 *
 * <h2>Meters</h2>
 * {@value #SHIPPED} (records the service took), {@value #DROPPED} tagged {@code reason}: {@code buffer_full} (memory
 * buffer full), {@code spill_full} (spill directory at {@code spill-max-bytes}), {@code rejected} (a 4xx),
 * {@code unreadable} (a line or spilled file that cannot be read), {@code closed} (after shutdown);
 * {@value #UPLOADS} tagged {@code outcome} ({@code 2xx|4xx|5xx|timeout|error}); {@value #PENDING} (spilled bytes).
 */
@Singleton
@Requires(property = ShippingConfiguration.PREFIX + ".url", pattern = ".+")
public class DecisionLogShipper implements DecisionLogSink {

    public static final String SHIPPED = "gatehouse.decision_log.shipped";
    public static final String DROPPED = "gatehouse.decision_log.dropped";
    public static final String UPLOADS = "gatehouse.decision_log.uploads";
    public static final String PENDING = "gatehouse.decision_log.pending";

    private static final Logger LOG = LoggerFactory.getLogger(DecisionLogShipper.class);
    /** How often an idle shipper looks whether it was closed. */
    private static final long CLOSE_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final ShippingConfiguration configuration;
    private final Map<String, String> labels;
    private final MeterRegistry meters;
    private final BlockingQueue<byte[]> buffer;
    private final HttpClient http;
    private final SpillDirectory spill;
    private final Thread thread;
    private volatile boolean closed;
    private Duration backoff = Duration.ZERO;
    private long nextAttemptNanos = System.nanoTime();

    @Inject
    public DecisionLogShipper(ShippingConfiguration configuration, MeterRegistry meters,
            @Value("${gatehouse.version:0.1.0}") String version,
            @Value("${gatehouse.environment-id:local}") String environment) throws IOException {
        this(configuration, Map.of("id", UUID.randomUUID().toString(), "app", "gatehouse", "version", version,
                "environment", environment), meters);
    }

    /**
     * @param labels OPA's {@code labels} put on every event
     * @throws IOException when the spill directory cannot be created or read
     */
    public DecisionLogShipper(ShippingConfiguration configuration, Map<String, String> labels, MeterRegistry meters)
            throws IOException {
        this.configuration = configuration;
        this.labels = Map.copyOf(labels);
        this.meters = meters;
        this.buffer = new ArrayBlockingQueue<>(configuration.getBufferRecords());
        this.http = HttpClient.newBuilder().connectTimeout(configuration.getTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.spill = new SpillDirectory(configuration.getSpillDir(), configuration.getSpillMaxBytes());
        Gauge.builder(PENDING, spill, SpillDirectory::bytes).baseUnit("bytes")
                .description("decision-log batches spilled and not yet taken by the service").register(meters);
        this.thread = new Thread(this::run, "gatehouse-decision-shipper");
        thread.setDaemon(true);
    }

    /** Starts the shipper thread: spilled batches of an earlier run go first. */
    @PostConstruct
    public void start() {
        thread.start();
    }

    @Override
    public void written(byte[] line) {
        if (closed) {
            dropped("closed", 1);
        } else if (!buffer.offer(line)) {
            dropped("buffer_full", 1);
        }
    }

    /**
     * Stops taking lines, spills what is in memory (up to the spill limit) and stops the thread; waits at most the
     * POST timeout plus one second. Spilled batches are sent by the next start.
     */
    @PreDestroy
    public void close() {
        // Not interrupted: an interrupt would close a spill file being written and lose its batch.
        closed = true;
        try {
            thread.join(configuration.getTimeout().plusSeconds(1).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (!closed) {
            try {
                List<byte[]> batch = collect();
                if (!batch.isEmpty()) {
                    spill(batch);
                }
                if (System.nanoTime() - nextAttemptNanos >= 0) {
                    sendOldest();
                }
            } catch (InterruptedException e) {
                break; // close(): spill what is left below
            } catch (RuntimeException e) {
                LOG.error("decision-log shipper failed a round; it goes on", e);
            }
        }
        List<byte[]> rest = new ArrayList<>();
        buffer.drainTo(rest);
        for (int from = 0; from < rest.size(); from += configuration.getBatchMaxRecords()) {
            spill(rest.subList(from, Math.min(rest.size(), from + configuration.getBatchMaxRecords())));
        }
    }

    /**
     * Up to one batch from memory: waits for a first line (not longer than the next attempt is due), then up to
     * {@code batch-delay} for the batch to fill.
     */
    private List<byte[]> collect() throws InterruptedException {
        List<byte[]> batch = new ArrayList<>();
        long wait = Math.min(CLOSE_CHECK_NANOS, pendingBatches()
                ? Math.max(0, nextAttemptNanos - System.nanoTime()) : configuration.getBatchDelay().toNanos());
        byte[] first = buffer.poll(wait, TimeUnit.NANOSECONDS);
        if (first == null) {
            return batch;
        }
        batch.add(first);
        long until = System.nanoTime() + configuration.getBatchDelay().toNanos();
        while (batch.size() < configuration.getBatchMaxRecords()) {
            buffer.drainTo(batch, configuration.getBatchMaxRecords() - batch.size());
            long left = until - System.nanoTime();
            if (batch.size() >= configuration.getBatchMaxRecords() || left <= 0) {
                break;
            }
            byte[] next = buffer.poll(left, TimeUnit.NANOSECONDS);
            if (next == null) {
                break;
            }
            batch.add(next);
        }
        return batch;
    }

    private boolean pendingBatches() {
        return spill.bytes() > 0;
    }

    /** Writes a batch as one gzip body into the spill directory, or counts it dropped. */
    private void spill(List<byte[]> lines) {
        ArrayNode events = PolicyJson.MAPPER.createArrayNode();
        int unreadable = 0;
        for (byte[] line : lines) {
            try {
                events.add(OpaDecisionEvent.of(line, labels));
            } catch (IOException e) {
                unreadable++;
            }
        }
        if (unreadable > 0) {
            dropped("unreadable", unreadable);
        }
        if (events.isEmpty()) {
            return;
        }
        try {
            if (!spill.write(gzip(PolicyJson.write(events).getBytes(StandardCharsets.UTF_8)))) {
                LOG.warn("decision-log spill directory {} is full ({} bytes); {} record(s) dropped",
                        configuration.getSpillDir(), spill.bytes(), events.size());
                dropped("spill_full", events.size());
            }
        } catch (IOException e) {
            LOG.error("decision-log batch of {} record(s) not spilled to {}: {}", events.size(),
                    configuration.getSpillDir(), e.toString());
            dropped("spill_full", events.size());
        }
    }

    /** POSTs the oldest spilled batch; sets the backoff after a failure. */
    private void sendOldest() throws InterruptedException {
        Path file;
        byte[] body;
        try {
            List<Path> pending = spill.pending();
            if (pending.isEmpty()) {
                return;
            }
            file = pending.get(0);
            body = Files.readAllBytes(file);
        } catch (IOException e) {
            LOG.error("decision-log spill directory {} cannot be read: {}", configuration.getSpillDir(), e.toString());
            retryLater();
            return;
        }
        String outcome;
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(configuration.getUrl().orElseThrow())
                    .timeout(configuration.getTimeout())
                    .header("Content-Type", "application/json")
                    .header("Content-Encoding", "gzip")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body));
            credential().ifPresent(token -> request.header("Authorization", "Bearer " + token));
            int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            outcome = (status / 100) + "xx";
            if (status / 100 == 2) {
                shipped(file, body);
            } else if (status / 100 == 4 && status != 408 && status != 429) {
                int records = records(body);
                LOG.error("decision-log service refused a batch of {} record(s) with {}; dropped", records, status);
                remove(file);
                dropped("rejected", records);
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
        }
        Counter.builder(UPLOADS).description("POSTs of decision-log batches by outcome").tag("outcome", outcome)
                .register(meters).increment();
    }

    private void shipped(Path file, byte[] body) {
        int records = records(body);
        remove(file);
        Counter.builder(SHIPPED).description("decision-log records the decision-log service took")
                .register(meters).increment(records);
        backoff = Duration.ZERO;
        nextAttemptNanos = System.nanoTime();
    }

    private void remove(Path file) {
        try {
            spill.remove(file);
        } catch (IOException e) {
            LOG.error("sent decision-log batch {} cannot be removed (it will be sent again): {}", file, e.toString());
        }
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

    /** The number of events in a spilled body (0 when it cannot be read). */
    private static int records(byte[] gzipBody) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipBody))) {
            return PolicyJson.MAPPER.readTree(in).size();
        } catch (IOException e) {
            return 0;
        }
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        }
        return out.toByteArray();
    }
}
