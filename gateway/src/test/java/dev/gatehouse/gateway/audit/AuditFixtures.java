package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.SegmentCharacters;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.support.LoggedRecords;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/** Records, a settable clock and channel wrappers shared by the decision-log tests. */
final class AuditFixtures {

    static final CallerFacts THREAD = Facts.a1();

    static final DecisionInput WRITE = new DecisionInput(Optional.of("wiki_write"), Optional.of(Map.of(
            "path", "page.md", "content", "x", "auth", Map.of("apiToken", "tok-SECRET", "note", "kept"))),
            List.of(), THREAD, Map.of());

    private AuditFixtures() {
    }

    /**
     * A confined wiki path of exactly 7,350 UTF-8 bytes the policy allows: 30 distinct segments of 244-245 bytes
     * (within the 251-byte segment limit), letters outside ASCII, so each segment also gets a {@code unicode} fact.
     */
    static String longPath() {
        StringBuilder path = new StringBuilder("00x" + "\u00e9".repeat(121));
        for (int i = 1; i < 30; i++) {
            path.append('/').append(String.format("%02d", i)).append("\u00e9".repeat(121));
        }
        return path.toString();
    }

    /** a1's wiki_read of {@code path}, with the facts the PEP sends, allowed as the policy allows it. */
    static DecisionRecord read(String path) {
        Map<String, Object> arguments = Map.of("path", path);
        DecisionInput input = new DecisionInput(Optional.of("wiki_read"), Optional.of(arguments), List.of(), THREAD,
                Map.of(), SegmentCharacters.of(arguments, List.of("path"), THREAD.subtreeIds()));
        Decision allow = new Decision(true, List.of(), new Obligations(Map.of(), Map.of("path", "agents/a1/" + path), Optional.of("agents/a1")),
                "rev-1", 40, Optional.of("default"));
        return DecisionRecord.forCall(input, new PolicyOutcome.Decided<>(allow));
    }

    /**
     * A tools/call deny of {@link #WRITE} whose line is a little over twice {@code reasonChars} bytes longer (the
     * reasons, in messages short enough to be logged as they are, and their readable copy).
     */
    static DecisionRecord record(int reasonChars) {
        List<Decision.Reason> reasons = new ArrayList<>();
        for (int left = reasonChars; left > 0; left -= 200) {
            reasons.add(new Decision.Reason("schema", "m".repeat(Math.min(200, left))));
        }
        Decision deny = new Decision(false, reasons, Obligations.NONE, "rev", 1);
        return DecisionRecord.forCall(WRITE, new PolicyOutcome.Decided<>(deny));
    }

    static DecisionLogConfiguration configuration(Path file) {
        DecisionLogConfiguration configuration = new DecisionLogConfiguration();
        configuration.setPath(file.toString());
        return configuration;
    }

    /** Every line of every log file, oldest first, each parsed (fails on a line that is not JSON). */
    static List<JsonNode> readAll(List<Path> files) throws IOException {
        List<JsonNode> records = new ArrayList<>();
        for (Path file : files) {
            for (String line : Files.readAllLines(file)) {
                records.add(PolicyJson.MAPPER.readTree(line));
            }
        }
        return records;
    }

    /** The values of one encoded record, by key, as {@link LoggedRecords#values} reads them from a values file. */
    static Map<String, JsonNode> values(RecordLine line) throws IOException {
        Map<String, JsonNode> values = new HashMap<>();
        for (StoredValue value : line.values()) {
            LoggedRecords.entry(PolicyJson.MAPPER.readTree(value.entry()), values);
        }
        return values;
    }

    static List<String> ids(List<JsonNode> records) {
        return records.stream().map(r -> r.get("decision_id").asText()).toList();
    }

    /** A clock the test moves. */
    static final class SettableClock extends Clock {

        private volatile Instant now;

        SettableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** Wraps every channel the log opens; subclasses see each write. */
    abstract static class Wrapper implements UnaryOperator<WritableByteChannel> {

        final AtomicInteger writes = new AtomicInteger();

        @Override
        public WritableByteChannel apply(WritableByteChannel delegate) {
            return new WritableByteChannel() {
                @Override
                public int write(ByteBuffer source) throws IOException {
                    return Wrapper.this.write(delegate, source, writes.incrementAndGet());
                }

                @Override
                public boolean isOpen() {
                    return delegate.isOpen();
                }

                @Override
                public void close() throws IOException {
                    delegate.close();
                }
            };
        }

        /** @param n this write's number, from 1, over every channel this wrapper wrapped */
        abstract int write(WritableByteChannel delegate, ByteBuffer source, int n) throws IOException;
    }

    /** Counts writes. */
    static final class Counting extends Wrapper {
        @Override
        int write(WritableByteChannel delegate, ByteBuffer source, int n) throws IOException {
            return delegate.write(source);
        }
    }

    /** Holds the first write until {@link #release} (a disk that stopped answering); later writes go through. */
    static final class HoldFirst extends Wrapper {

        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        /** Lines in the held write; set before {@link #entered} opens. */
        volatile int heldLines;

        @Override
        int write(WritableByteChannel delegate, ByteBuffer source, int n) throws IOException {
            if (n == 1) {
                int lines = 0;
                for (int i = source.position(); i < source.limit(); i++) {
                    lines += source.get(i) == '\n' ? 1 : 0;
                }
                heldLines = lines;
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            return delegate.write(source);
        }
    }

    /** Write number {@code failing} puts half its bytes in the file, then fails (a disk that filled up). */
    static final class FailHalfway extends Wrapper {

        private final int failing;

        FailHalfway(int failing) {
            this.failing = failing;
        }

        @Override
        int write(WritableByteChannel delegate, ByteBuffer source, int n) throws IOException {
            if (n != failing) {
                return delegate.write(source);
            }
            ByteBuffer half = source.duplicate();
            half.limit(source.position() + source.remaining() / 2);
            while (half.hasRemaining()) {
                delegate.write(half);
            }
            throw new IOException("No space left on device (simulated, after " + half.position() + " bytes)");
        }
    }
}
