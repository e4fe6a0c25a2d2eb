package dev.gatehouse.gateway.audit.shipping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.audit.DecisionLogConfiguration;
import dev.gatehouse.gateway.audit.DecisionLogSink;
import dev.gatehouse.gateway.audit.DecisionLogSink.Appended;
import dev.gatehouse.gateway.audit.LogFiles;
import dev.gatehouse.gateway.decisions.DecisionIndex;
import dev.gatehouse.gateway.decisions.DecisionIndexConfiguration;
import dev.gatehouse.gateway.decisions.DecisionRecords;
import dev.gatehouse.gateway.decisions.IndexFeedStatus;
import dev.gatehouse.gateway.decisions.StoredDecision;
import dev.gatehouse.gateway.notice.NoticeProperties;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds this replica's decisions into the shared {@link DecisionIndex} from a cursor ({@link ShipCursor}, kept in
 * {@code <stem>.indexed.json} beside the log: a log file by its first record, and a byte offset in it), never past
 * what the writer reported written, through the rotated files in order into the live one, up to
 * {@code batch-max-records} records per statement (a batch of the live file waits at most {@code batch-delay} to
 * fill), each with the values its stand-ins name from the file's values file (up to {@code max-values-bytes}). The
 * cursor moves past a batch once the index took it.
 *
 * <p><b>Handed, or read back.</b> The writer hands this sink the records of each write ({@link #appended}: each line as
 * written and what the index lists of it, read from the tree the line was written from), and the feed keeps them
 * ({@link Handoff}, at most {@code handoff-max-records} records and {@code handoff-max-bytes} bytes of lines; a write
 * that does not fit is not kept). Where kept records continue exactly at the cursor, the feed indexes them as they
 * are: no file is read and no line parsed (a line whose listing only the line can tell is parsed, still not read
 * back). Otherwise (at start-up, resuming from the cursor, a backlog after the index could not be written, records
 * the full hand-off did not keep) it reads the files as the shipper does ({@link LogTail}) and parses each line
 * ({@link DecisionRecords#listing(byte[])}), and goes back to the handed records where they continue at the cursor
 * again; at a rotation it looks at the files only to move its cursor to the start of the next one.
 * Both give the same summaries and lines; the outcome is decided with the serving revision's reason catalogue when
 * the batch is indexed. Records with stand-ins take their values from the values file either way.
 *
 * <p><b>Off the request path.</b> The writer only keeps or drops the handed records and tells this sink how far the
 * live file holds whole records, never waiting for the feed; all the reading, parsing and writing happens on this
 * feed's one thread. When the index cannot be written (the store is down or refuses), the cursor stays, the feed
 * waits {@code min-backoff} doubling to {@code max-backoff} and tries again, and the gateway goes on deciding and
 * logging: the log is the record of truth, and the index catches up from the cursor, also after a restart. Writes are
 * idempotent (by decision id), so a batch written twice changes nothing.
 *
 * <p><b>Bounded.</b> Every {@code sweep-interval} the feed deletes from the index what is older than
 * {@code retention}, and the earliest indexed beyond {@code max-records}, whichever replica wrote them. The feed
 * never says a log file was shipped ({@link #shipped}): the index is a bounded copy, not an archive.
 *
 * <p>Counters {@value #INDEXED}, {@value #READ_BACK} (of those, the records read back from the files),
 * {@value #HANDOFF_DROPPED} (records the full hand-off did not keep) and {@value #FAILED} (batches the index
 * refused); {@link #status()} for {@code /health}.
 */
@Singleton
@Requires(property = DecisionIndexConfiguration.PREFIX + ".enabled", notEquals = "false")
public class IndexFeed implements DecisionLogSink {

    public static final String INDEXED = "gatehouse.decision_index.indexed";
    public static final String FAILED = "gatehouse.decision_index.failed";
    public static final String READ_BACK = "gatehouse.decision_index.read_back";
    public static final String HANDOFF_DROPPED = "gatehouse.decision_index.handoff_dropped";

    private static final Logger LOG = LoggerFactory.getLogger(IndexFeed.class);
    /** How often an idle feed looks at the files even without being told of a write. */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final DecisionIndexConfiguration configuration;
    private final DecisionIndex index;
    private final PolicyDecisionPoint pdp;
    private final String replica;
    private final Clock clock;
    private final MeterRegistry meters;
    private final Path live;
    private final Path cursorFile;
    private final LogFollower follower;
    private final IndexFeedStatus status;
    private final Handoff handoff;
    private final Counter readBack;
    private final Counter handoffDropped;

    /** Touched by the feed thread only. */
    private ShipCursor cursor;
    private Duration backoff = Duration.ZERO;
    private long nextAttemptNanos = System.nanoTime();
    private long nextSweepNanos = System.nanoTime();

    @Inject
    public IndexFeed(DecisionIndexConfiguration configuration, DecisionLogConfiguration log, DecisionIndex index,
            PolicyDecisionPoint pdp, NoticeProperties notices, Clock clock, MeterRegistry meters) throws IOException {
        this(configuration, log.file(), index, pdp, notices.getReplicaName(), clock, meters);
    }

    /**
     * @param live    the decision log's live file
     * @param replica the name this replica's decisions are indexed under
     * @throws IOException when the cursor file exists and cannot be read
     */
    public IndexFeed(DecisionIndexConfiguration configuration, Path live, DecisionIndex index,
            PolicyDecisionPoint pdp, String replica, Clock clock, MeterRegistry meters) throws IOException {
        this.configuration = configuration;
        this.index = index;
        this.pdp = pdp;
        this.replica = replica;
        this.clock = clock;
        this.meters = meters;
        this.live = live.toAbsolutePath();
        this.cursorFile = LogFiles.indexedFile(this.live);
        this.cursor = ShipCursor.load(cursorFile);
        this.status = new IndexFeedStatus(replica, clock.instant());
        this.handoff = new Handoff(configuration.getHandoffMaxRecords(), configuration.getHandoffMaxBytes());
        this.readBack = Counter.builder(READ_BACK).description("decisions indexed from records read back from the log"
                + " files").register(meters);
        this.handoffDropped = Counter.builder(HANDOFF_DROPPED).description("decisions the writer handed the index"
                + " feed that the full hand-off did not keep (read back from the log files instead)").register(meters);
        this.follower = new LogFollower(this.live, "gatehouse-decision-index", this::run, IDLE_NANOS,
                configuration::getBatchMaxRecords, configuration::getBatchDelay);
    }

    /** Starts the feed thread: it resumes at the cursor. */
    @PostConstruct
    public void start() {
        follower.start();
    }

    /** Stops the thread; waits at most the store's deadline plus one second. The cursor is already on disk. */
    @PreDestroy
    public void close() {
        follower.close(Duration.ofSeconds(5));
    }

    /** How the feed of this replica stands. */
    public IndexFeedStatus status() {
        return status;
    }

    /** Keeps the records for the feed, or drops them when the hand-off is full; never waits. */
    @Override
    public void appended(String firstId, long from, List<Appended> records) {
        if (!handoff.offer(firstId, from, records)) {
            handoffDropped.increment(records.size());
        }
    }

    @Override
    public void written(String firstId, long liveBytes) {
        follower.written(firstId, liveBytes);
    }

    @Override
    public void rotated(String firstId, Path rotated) {
        follower.signal(); // the cursor finds its file again by the first record's id
    }

    /** Never: the index is bounded and may already have dropped what a file holds. */
    @Override
    public boolean shipped(Path rotated, String firstId) {
        return false;
    }

    private void run() {
        while (!follower.closed()) {
            try {
                sweepWhenDue();
                long due = nextAttemptNanos - System.nanoTime();
                if (due > 0) {
                    follower.await(Math.min(due, Math.max(1, nextSweepNanos - System.nanoTime())));
                    continue;
                }
                round();
            } catch (InterruptedException e) {
                return;
            } catch (IOException | RuntimeException e) {
                failed("reading the decision log", e);
            }
        }
    }

    private void sweepWhenDue() {
        if (System.nanoTime() - nextSweepNanos < 0) {
            return;
        }
        nextSweepNanos = System.nanoTime() + configuration.getSweepInterval().toNanos();
        try {
            long deleted = index.sweep(clock.instant().minus(configuration.getRetention()),
                    configuration.getMaxRecords());
            if (deleted > 0) {
                LOG.info("decision index: {} decision(s) past retention {} or beyond {} records deleted", deleted,
                        configuration.getRetention(), configuration.getMaxRecords());
            }
        } catch (RuntimeException e) {
            LOG.warn("decision index could not be swept; trying again in {}: {}", configuration.getSweepInterval(),
                    e.toString());
        }
    }

    /**
     * One look: indexes a batch of the records handed where they continue at the cursor; otherwise, unless the cursor
     * is at what the writer last reported, looks at the files: indexes a batch, moves to the next file, or waits.
     */
    private void round() throws IOException, InterruptedException {
        int max = configuration.getBatchMaxRecords();
        Optional<LogTail.Chunk> handed = handoff.continuing(cursor, follower::reported, max);
        if (handed.isPresent()) {
            follower.take(live, cursor, handed.get(), this::index);
            return;
        }
        LogTail.Live reported = follower.reported();
        if (cursor.firstId() != null && cursor.firstId().equals(reported.firstId())
                && cursor.offset() == reported.bytes()) {
            status.caughtUp(clock.instant());
            follower.await(IDLE_NANOS);
            return;
        }
        Optional<Path> file = locate();
        follower.round(file, cursor, () -> status.caughtUp(clock.instant()), this::next, this::index);
    }

    /** Writes one batch to the index; moves the cursor past it when the index took it. */
    private void index(Path file, LogTail.Chunk chunk) throws IOException {
        List<StoredDecision> decisions = new ArrayList<>();
        Optional<ServedPolicy> serving = pdp.serving();
        Predicate<String> retryable = code -> serving.map(ServedPolicy::contents)
                .map(contents -> contents.retryable(code)).orElse(false);
        try (Values values = new Values(chunk.firstId())) {
            for (int i = 0; i < chunk.lines().size(); i++) {
                byte[] line = chunk.lines().get(i);
                Optional<DecisionRecords.Listing> listing = chunk.handed().isEmpty() ? DecisionRecords.listing(line)
                        : Optional.ofNullable(chunk.handed().get(i).listing())
                                .or(() -> DecisionRecords.listing(line));
                if (listing.isPresent()) {
                    decisions.add(stored(line, listing.get().listed(replica, retryable), values));
                }
            }
        }
        try {
            index.add(decisions);
        } catch (RuntimeException e) {
            failed("writing the index", e);
            return;
        }
        Counter.builder(INDEXED).description("decisions this replica wrote to the decision index").register(meters)
                .increment(decisions.size());
        if (chunk.handed().isEmpty()) {
            readBack.increment(decisions.size());
        }
        cursor = new ShipCursor(file.getFileName().toString(), chunk.firstId(), chunk.to());
        cursor.save(cursorFile);
        backoff = Duration.ZERO;
        nextAttemptNanos = System.nanoTime();
        status.indexed(decisions.size(), clock.instant());
    }

    /**
     * One record's line as the index keeps it, with what it lists of it and the values its stand-ins name. The line
     * is stored as it is; a record with stand-ins (rare: long or secret values, reduced lines) is also read whole, for
     * the values they name.
     */
    private StoredDecision stored(byte[] line, DecisionRecords.Listed listed, Values lookup) throws IOException {
        int end = line.length > 0 && line[line.length - 1] == '\n' ? line.length - 1 : line.length;
        String text = new String(line, 0, end, StandardCharsets.UTF_8);
        if (!listed.standIns()) {
            return new StoredDecision(listed.summary(), text, Optional.empty(), false);
        }
        ValueLookup values = lookup.open();
        JsonNode record = PolicyJson.MAPPER.readTree(line);
        List<String> keys = new ArrayList<>(OpaDecisionEvent.valueKeys(record));
        ArrayNode kept = PolicyJson.MAPPER.createArrayNode();
        boolean missing = false;
        for (int i = 0; i < keys.size(); i++) {
            Optional<JsonNode> entry = values.entry(keys.get(i));
            if (entry.isEmpty()) {
                missing = true;
                continue;
            }
            kept.add(entry.get());
            if (i == 0 && record.has("reduced")) { // the whole record names values of its own
                keys.addAll(OpaDecisionEvent.valueKeys(entry.get().path("json")));
            }
        }
        Optional<String> json = Optional.empty();
        if (!kept.isEmpty()) {
            String written = PolicyJson.write(kept);
            if (written.getBytes(StandardCharsets.UTF_8).length <= configuration.getMaxValuesBytes()) {
                json = Optional.of(written);
            } else {
                missing = true;
            }
        }
        return new StoredDecision(listed.summary(), text, json, missing);
    }

    /** The values file of a batch's log file, opened when a record of the batch first needs it. */
    private final class Values implements AutoCloseable {

        private final String firstId;
        private ValueLookup lookup;

        Values(String firstId) {
            this.firstId = firstId;
        }

        ValueLookup open() throws IOException {
            if (lookup == null) {
                lookup = ValueLookup.open(live, firstId);
            }
            return lookup;
        }

        @Override
        public void close() throws IOException {
            if (lookup != null) {
                lookup.close();
            }
        }
    }

    /**
     * The file the cursor is in, found by its first record; a cursor whose file is gone (deleted by the log's
     * retention before it was indexed) moves to the oldest file after it, saying so.
     */
    private Optional<Path> locate() throws IOException {
        List<Path> files = follower.files();
        if (files.isEmpty()) {
            return Optional.empty();
        }
        if (cursor.firstId() == null) {
            return Optional.of(files.get(0));
        }
        for (Path file : files) {
            if (cursor.firstId().equals(follower.firstId(file))) {
                return Optional.of(file);
            }
        }
        String gone = cursor.name();
        Path after = files.stream().filter(f -> gone == null || !LogFiles.isRotatedName(live, gone)
                || f.getFileName().toString().compareTo(gone) > 0).findFirst().orElse(files.get(files.size() - 1));
        LOG.warn("decision-log file {} was deleted before all its records were indexed (from byte {} on); the"
                + " index goes on with {}", gone, cursor.offset(), after);
        cursor = new ShipCursor(after.getFileName().toString(), follower.firstId(after), 0);
        cursor.save(cursorFile);
        return Optional.empty();
    }

    /** Moves the cursor to the start of the file after {@code done}; false when there is none yet. */
    private boolean next(Path done) throws IOException {
        Optional<ShipCursor> start = follower.startOfNext(done);
        if (start.isEmpty()) {
            return false;
        }
        cursor = start.get();
        cursor.save(cursorFile);
        return true;
    }

    private void failed(String what, Exception e) {
        backoff = backoff.isZero() ? configuration.getMinBackoff() : backoff.multipliedBy(2);
        if (backoff.compareTo(configuration.getMaxBackoff()) > 0) {
            backoff = configuration.getMaxBackoff();
        }
        nextAttemptNanos = System.nanoTime() + backoff.toNanos();
        Counter.builder(FAILED).description("decision-index batches that could not be written or read")
                .register(meters).increment();
        status.failed(what + ": " + e.getMessage(), clock.instant());
        LOG.warn("decision index: {} failed; this replica keeps deciding and logging, and retries in {}: {}", what,
                backoff, e.toString());
    }
}
