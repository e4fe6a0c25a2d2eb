package dev.gatehouse.gateway.audit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.decisions.DecisionRecords;
import dev.gatehouse.gateway.decisions.Outcome;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import dev.gatehouse.gateway.quota.Admission;
import dev.gatehouse.gateway.support.Facts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the writer hands a sink of each write ({@link DecisionLogSink#appended}): the lines exactly as they are in
 * the files, at the offsets they are there, and for every kind of record the same listing as reading its line again
 * ({@link DecisionRecords#listing(byte[])}), so the decision index lists a handed record as it lists one read back.
 */
class DecisionLogHandoffTest {

    private static final CallerFacts THREAD = Facts.a1();
    private static final CallerFacts OUTSIDE = outside("agent-x");
    private static final Predicate<String> RETRYABLE = Set.of("policy_unavailable", "upstream_timeout")::contains;
    private static final Quota QUOTA = new Quota("thread/wiki_write/a1", "wiki_write", 60, 10);
    private static final String LONG = "t".repeat(300);

    /** A sink that keeps what it is handed, as the writer hands it. */
    private static final class Capture implements DecisionLogSink {

        record Handed(String firstId, long from, DecisionLogSink.Appended record) {
        }

        final List<Handed> handed = new ArrayList<>();

        @Override
        public void appended(String firstId, long from, List<Appended> records) {
            long at = from;
            for (Appended record : records) {
                handed.add(new Handed(firstId, at, record));
                at += record.line().length;
            }
        }

        @Override
        public void written(String firstId, long liveBytes) {
        }

        @Override
        public void rotated(String firstId, Path rotated) {
        }

        @Override
        public boolean shipped(Path rotated, String firstId) {
            return false;
        }
    }

    private static CallerFacts outside(String id) {
        return new CallerFacts("outside_agent", id, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of("full-access"), THREAD.settings(), Optional.empty());
    }

    private static DecisionInput call(String tool, CallerFacts caller) {
        return new DecisionInput(Optional.of(tool), Optional.of(Map.of("path", "page.md")), List.of(), caller,
                Map.of());
    }

    private static PolicyOutcome<Decision> allow() {
        return new PolicyOutcome.Decided<>(new Decision(true, List.of(), Obligations.NONE, "rev-1", 4,
                Optional.of("default")));
    }

    private static PolicyOutcome<Decision> deny(String... codes) {
        List<Decision.Reason> reasons = new ArrayList<>();
        for (String code : codes) {
            reasons.add(new Decision.Reason(code, "because of " + code));
        }
        return new PolicyOutcome.Decided<>(new Decision(false, reasons, Obligations.NONE, "rev-2", 7));
    }

    private static <T> PolicyOutcome<T> fault() {
        return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.TIMEOUT, "no answer within 50ms"));
    }

    private static ObjectNode notice(String title) {
        ObjectNode input = PolicyJson.MAPPER.createObjectNode();
        input.putObject("notice").put("kind", "assignment").put("title", title);
        return input;
    }

    /** Every kind of record the gateway logs, by what it is. */
    private static Map<String, DecisionRecord> records() {
        Map<String, DecisionRecord> records = new LinkedHashMap<>();
        records.put("allowed call, thread caller with provider", DecisionRecord.forCall(call("wiki_read", THREAD),
                Optional.of("codex"), allow(), new Admission.NotCharged()));
        records.put("allowed call, outside agent", DecisionRecord.forCall(call("wiki_read", OUTSIDE), allow()));
        records.put("denied with several reasons", DecisionRecord.forCall(call("wiki_write", THREAD),
                deny("schema", "path_outside_root", "schema")));
        records.put("denied with retryable reasons only", DecisionRecord.forCall(call("wiki_write", THREAD),
                deny("upstream_timeout", "policy_unavailable")));
        records.put("denied with one retryable reason among others", DecisionRecord.forCall(
                call("wiki_write", OUTSIDE), deny("upstream_timeout", "schema")));
        records.put("denied without a reason", DecisionRecord.forCall(call("wiki_write", THREAD), deny()));
        records.put("fault", DecisionRecord.forCall(call("wiki_read", THREAD), fault()));
        records.put("quota admitted", DecisionRecord.forCall(call("wiki_write", THREAD), Optional.empty(), allow(),
                new Admission.Admitted(QUOTA, Admission.Budget.SHARED)));
        records.put("quota over budget", DecisionRecord.forCall(call("wiki_write", THREAD), Optional.empty(),
                allow(), new Admission.OverBudget(QUOTA, Admission.Budget.LOCAL, 750)));
        records.put("quota over budget of a denied call", DecisionRecord.forCall(call("wiki_write", THREAD),
                Optional.empty(), deny("schema"), new Admission.OverBudget(QUOTA, Admission.Budget.SHARED, 10)));
        records.put("quota unavailable", DecisionRecord.forCall(call("wiki_write", THREAD), Optional.empty(),
                allow(), new Admission.TimeSpent(QUOTA)));
        records.put("over the caller's share", DecisionRecord.forOverShare("wiki_write", THREAD,
                Optional.of("codex"), new Admission.OverShare(250)));
        records.put("tools/list", DecisionRecord.forListing(DecisionInput.forListing(THREAD),
                new PolicyOutcome.Decided<>(new VisibleTools(List.of("wiki_read", "wiki_write"), "rev-1", 3,
                        Optional.of("default")))));
        records.put("tools/list of an outside agent", DecisionRecord.forListing(DecisionInput.forListing(OUTSIDE),
                new PolicyOutcome.Decided<>(new VisibleTools(List.of(), "rev-1", 3))));
        records.put("tools/list fault", DecisionRecord.forListing(DecisionInput.forListing(THREAD), fault()));
        records.put("notice", DecisionRecord.forNotice(notice("review"), "a1", allow()));
        records.put("notice denied", DecisionRecord.forNotice(notice("review"), "a1", deny("notice_muted")));
        records.put("notice fault", DecisionRecord.forNotice(notice("review"), "a1", fault()));
        records.put("long tool name", DecisionRecord.forCall(call(LONG, THREAD), allow()));
        records.put("long tool name over the share", DecisionRecord.forOverShare(LONG, THREAD, Optional.empty(),
                new Admission.OverShare(5)));
        records.put("long agent id", DecisionRecord.forCall(call("wiki_read", outside("a".repeat(400))), deny(
                "schema")));
        records.put("long notice agent", DecisionRecord.forNotice(notice("x"), "n".repeat(300), allow()));
        records.put("long reason code", DecisionRecord.forCall(call("wiki_write", THREAD), deny("c".repeat(300),
                "schema")));
        records.put("long secret argument", DecisionRecord.forCall(new DecisionInput(Optional.of("wiki_write"),
                Optional.of(Map.of("path", "p", "auth", Map.of("apiToken", "s".repeat(500)))), List.of(), THREAD,
                Map.of()), deny("schema")));
        records.put("long argument name", DecisionRecord.forCall(new DecisionInput(Optional.of("wiki_write"),
                Optional.of(Map.of("k".repeat(300), "v")), List.of(), THREAD, Map.of()), deny("schema")));
        ObjectNode longName = notice("x");
        ((ObjectNode) longName.get("notice")).putObject("meta").put("m".repeat(300), "short");
        records.put("long member name only (redactedKeys)", DecisionRecord.forNotice(longName, "a1", allow()));
        records.put("letters outside the BMP", DecisionRecord.forCall(call("wiki_\uD83D\uDE00read",
                outside("\uD83D\uDE00\u00e9")), allow()));
        records.put("reduced", AuditFixtures.record(6000));
        records.put("reduced twice (long reason messages)", AuditFixtures.record(20000));
        records.put("reduced, a long tool name", DecisionRecord.forCall(new DecisionInput(Optional.of(LONG),
                Optional.of(Map.of("content", Collections.nCopies(30, "x".repeat(200)))), List.of(), THREAD,
                Map.of()), deny("schema")));
        return records;
    }

    /** Records whose tree cannot tell what their line lists: a tool name with an unpaired surrogate is written "?". */
    private static Map<String, DecisionRecord> onlyTheLineTells() {
        return Map.of("unpaired surrogate in the tool", DecisionRecord.forCall(call("wiki_\uD800read", THREAD),
                allow()), "unpaired surrogate in a reason code", DecisionRecord.forCall(call("wiki_read", THREAD),
                deny("schema\uDC00")));
    }

    @Test
    void everyKindOfRecordIsHandedAsWrittenWithWhatItsLineLists(@TempDir Path dir) throws Exception {
        Capture capture = new Capture();
        Path live = dir.resolve("decisions.jsonl");
        DecisionLogConfiguration configuration = AuditFixtures.configuration(live);
        configuration.setMaxFileBytes(64 * 1024); // some rotations on the way
        configuration.setMaxRecordBytes(4096); // the longest records are written reduced
        DecisionLog log = new DecisionLog(configuration, Clock.systemUTC(), UnaryOperator.identity(),
                List.of(capture), new SimpleMeterRegistry());
        Map<String, DecisionRecord> records = new LinkedHashMap<>();
        for (int round = 0; round < 4; round++) {
            for (Map.Entry<String, DecisionRecord> kind : records().entrySet()) {
                records.put(kind.getKey() + " #" + round, kind.getValue());
            }
        }
        for (Map.Entry<String, DecisionRecord> kind : onlyTheLineTells().entrySet()) {
            records.put(kind.getKey(), kind.getValue());
        }
        try {
            for (DecisionRecord record : records.values()) {
                assertInstanceOf(LogResult.Written.class, log.record(record));
            }
        } finally {
            log.close();
        }

        assertEquals(records.size(), capture.handed.size(), "every record handed once");
        assertTrue(log.files().size() > 2, "rotated: " + log.files());
        Set<String> kinds = new HashSet<>();
        List<String> names = new ArrayList<>(records.keySet());
        int handed = 0;
        for (Path file : log.files()) {
            byte[] bytes = Files.readAllBytes(file);
            String firstId = LogFiles.firstId(file).orElseThrow();
            int start = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] != '\n') {
                    continue;
                }
                byte[] line = Arrays.copyOfRange(bytes, start, i + 1);
                Capture.Handed record = capture.handed.get(handed);
                String kind = names.get(handed);
                assertArrayEquals(line, record.record().line(), kind + ": the line as written");
                assertEquals(firstId, record.firstId(), kind + ": the file");
                assertEquals(start, record.from(), kind + ": where it is in its file");
                Optional<DecisionRecords.Listing> read = DecisionRecords.listing(line);
                assertTrue(read.isPresent(), kind);
                if (onlyTheLineTells().containsKey(kind)) {
                    assertNull(record.record().listing(), kind + ": the line is read");
                    assertTrue(read.get().tool().orElseThrow().contains("?")
                            || read.get().reasons().get(0).contains("?"), kind + ": written as ?");
                } else {
                    assertNotNull(record.record().listing(), kind);
                    assertEquals(read.get(), record.record().listing(), kind);
                    assertEquals(DecisionRecords.summary(line, "r1", RETRYABLE).orElseThrow(),
                            record.record().listing().listed("r1", RETRYABLE), kind);
                    kinds.add(read.get().standIns() + " " + read.get().listed("r1", RETRYABLE).summary().outcome()
                            + " " + read.get().method());
                }
                handed++;
                start = i + 1;
            }
        }
        assertEquals(records.size(), handed);
        for (String kind : List.of("false ALLOWED tools/call", "false DENIED tools/call",
                "false UNAVAILABLE tools/call", "false RATE_LIMITED tools/call", "false ALLOWED tools/list",
                "false UNAVAILABLE tools/list", "false ALLOWED notice", "false DENIED notice",
                "false UNAVAILABLE notice", "true ALLOWED tools/call", "true DENIED tools/call",
                "true RATE_LIMITED tools/call", "true ALLOWED notice")) {
            assertTrue(kinds.contains(kind), kind + " in " + kinds);
        }
        assertEquals(Outcome.DENIED, DecisionRecords.summary(capture.handed.get(names.indexOf(
                "reduced #0")).record().line(), "r1", RETRYABLE).orElseThrow().summary().outcome());
        assertTrue(new String(capture.handed.get(names.indexOf("reduced twice (long reason messages) #0")).record()
                .line(), StandardCharsets.UTF_8).contains("\"reduced\""));
    }
}
