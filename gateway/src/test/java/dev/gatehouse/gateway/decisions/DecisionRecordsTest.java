package dev.gatehouse.gateway.decisions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * What the index lists of a record, read from its line member by member: the listed members whatever else the record
 * holds (the same names inside {@code input} or {@code result} are not read), the stand-ins of long values as
 * {@code sha256:<hex>}, the outcome, whether the record has stand-ins, and no summary for a line that is no record.
 */
class DecisionRecordsTest {

    private static final String ID = "0d9d693d-133d-4a20-a1d6-6434e49976e0";
    private static final String DIGEST = "cdad9d46934e4a6fed8ae92fa4b0b1b47c9b7e7c951d7e247a7a9f131e442a18";
    private static final Predicate<String> RETRYABLE = Set.of("policy_unavailable", "upstream_timeout")::contains;

    private static Optional<DecisionRecords.Listed> read(String line) {
        return DecisionRecords.summary(line.getBytes(StandardCharsets.UTF_8), "r1", RETRYABLE);
    }

    private static String record(String members) {
        return "{\"decision_id\":\"" + ID + "\",\"timestamp\":\"2026-12-02T14:18:49.048264901Z\","
                + "\"path\":\"gatehouse/authz/decision\"," + members + "}\n";
    }

    @Test
    void anAllowedCallIsListedFromItsOwnMembersOnly() {
        String line = record("\"method\":\"tools/call\",\"tool\":\"project_work_list\",\"caller\":{\"kind\":\"thread\","
                + "\"logicalAgentId\":\"a1\",\"threadId\":\"t1\",\"provider\":\"codex\"},\"input\":{\"tool\":\"x\","
                + "\"caller\":{\"kind\":\"outside_agent\",\"logicalAgentId\":\"a2\"},\"allow\":false,"
                + "\"reasons\":[{\"code\":\"in_input\"}],\"arguments\":{\"redacted\":[1],\"list\":[[],{},null,1.5]}},"
                + "\"result\":{\"allow\":false,\"reasons\":[{\"code\":\"in_result\"}]},"
                + "\"bundles\":{\"gatehouse\":{\"revision\":\"rev-7\",\"keyid\":\"default\"}},"
                + "\"metrics\":{\"timer_eval_us\":146},\"allow\":true,\"reasons\":[],"
                + "\"obligations\":{\"quota\":{\"bucket\":\"thread/read/a1\"}}");
        DecisionRecords.Listed listed = read(line).orElseThrow();
        assertEquals(new DecisionSummary(UUID.fromString(ID), Instant.parse("2026-12-02T14:18:49.048264901Z"), "r1",
                "tools/call", Optional.of("project_work_list"), "thread", "a1", Optional.of("t1"), Outcome.ALLOWED,
                List.of(), Optional.of("rev-7"), Optional.of("default")), listed.summary());
        assertFalse(listed.standIns());
    }

    @Test
    void longValuesAreListedByTheirDigestAndTheirStandInsAreSaid() {
        String standIn = "{\"length\":5000,\"sha256\":\"" + DIGEST + "\"}";
        DecisionRecords.Listed listed = read(record("\"method\":\"tools/call\",\"tool\":" + standIn
                + ",\"caller\":{\"kind\":\"outside_agent\",\"logicalAgentId\":" + standIn + "},"
                + "\"redacted\":[\"/tool\",\"/caller/logicalAgentId\"],\"allow\":false,"
                + "\"reasons\":[{\"code\":\"schema\",\"message\":" + standIn + "},{\"code\":" + standIn + "}]"))
                .orElseThrow();
        assertEquals(Optional.of("sha256:" + DIGEST), listed.summary().tool());
        assertEquals("sha256:" + DIGEST, listed.summary().agentId());
        assertEquals(Optional.empty(), listed.summary().threadId());
        assertEquals(List.of("schema", "sha256:" + DIGEST), listed.summary().reasons());
        assertEquals(Outcome.DENIED, listed.summary().outcome());
        assertEquals(Optional.empty(), listed.summary().revision());
        assertTrue(listed.standIns());
        for (String member : List.of("\"reduced\":{\"sha256\":\"" + DIGEST + "\"}", "\"redactedKeys\":[]")) {
            assertTrue(read(record("\"method\":\"notice\",\"caller\":{\"kind\":\"project_notice\","
                    + "\"logicalAgentId\":\"a1\"}," + member)).orElseThrow().standIns(), member);
        }
    }

    @Test
    void aFaultOrOnlyRetryableReasonsAreUnavailableOtherDenialsDenied() {
        String caller = "\"method\":\"tools/call\",\"caller\":{\"kind\":\"thread\",\"logicalAgentId\":\"a1\"},";
        assertEquals(Outcome.UNAVAILABLE, read(record(caller + "\"allow\":false,\"reasons\":[{\"code\":"
                + "\"policy_unavailable\"}],\"fault\":{\"code\":\"bundle_unavailable\"}")).orElseThrow().summary()
                .outcome());
        assertEquals(Outcome.UNAVAILABLE, read(record(caller + "\"allow\":false,\"reasons\":[{\"code\":"
                + "\"upstream_timeout\"},{\"code\":\"policy_unavailable\"}]")).orElseThrow().summary().outcome());
        assertEquals(Outcome.DENIED, read(record(caller + "\"allow\":false,\"reasons\":[{\"code\":"
                + "\"upstream_timeout\"},{\"code\":\"schema\"}]")).orElseThrow().summary().outcome());
        assertEquals(Outcome.DENIED, read(record(caller + "\"allow\":false,\"reasons\":[]")).orElseThrow().summary()
                .outcome());
        assertEquals(Outcome.DENIED, read(record(caller + "\"reasons\":[{\"message\":\"no code\"},\"odd\"]"))
                .orElseThrow().summary().outcome());
        assertEquals(List.of("", ""), read(record(caller + "\"reasons\":[{\"message\":\"no code\"},\"odd\"]"))
                .orElseThrow().summary().reasons());
    }

    /**
     * The three refusals of the quota step as DecisionRecordJson writes them: over the budget of an allowed call
     * (the policy's reasons empty, the PEP's code only in {@code quota}), over the caller's share (no decision, the
     * code in both), and no store time left (unavailable, no code). An admitted call stays allowed.
     */
    @Test
    void callsTheQuotaStepRefusedAreRateLimitedAndSearchedByItsCode() {
        String caller = "\"method\":\"tools/call\",\"tool\":\"wiki_write\",\"caller\":{\"kind\":\"thread\","
                + "\"logicalAgentId\":\"a1\"},";
        String bucket = "\"limit\":\"budget\",\"bucket\":\"thread/wiki_write/a1\",\"class\":\"wiki_write\"";
        DecisionSummary overBudget = read(record(caller + "\"allow\":true,\"reasons\":[],\"quota\":{\"outcome\":"
                + "\"rate_limited\",\"code\":\"rate_limited\"," + bucket + ",\"budget\":\"shared\","
                + "\"retryAfterMs\":750}")).orElseThrow().summary();
        assertEquals(Outcome.RATE_LIMITED, overBudget.outcome());
        assertEquals(List.of("rate_limited"), overBudget.reasons());

        DecisionSummary overShare = read(record(caller + "\"allow\":false,\"reasons\":[{\"code\":\"rate_limited\","
                + "\"message\":\"m\"}],\"quota\":{\"outcome\":\"rate_limited\",\"code\":\"rate_limited\","
                + "\"limit\":\"share\",\"retryAfterMs\":250}")).orElseThrow().summary();
        assertEquals(Outcome.RATE_LIMITED, overShare.outcome());
        assertEquals(List.of("rate_limited"), overShare.reasons(), "named once");

        DecisionSummary timeSpent = read(record(caller + "\"allow\":true,\"reasons\":[],\"quota\":{\"outcome\":"
                + "\"unavailable\"," + bucket + "}")).orElseThrow().summary();
        assertEquals(Outcome.UNAVAILABLE, timeSpent.outcome());
        assertEquals(List.of(), timeSpent.reasons());

        assertEquals(Outcome.ALLOWED, read(record(caller + "\"allow\":true,\"reasons\":[],\"quota\":{\"outcome\":"
                + "\"admitted\"," + bucket + ",\"budget\":\"local\"}")).orElseThrow().summary().outcome());
    }

    @Test
    void aLineThatIsNoRecordIsNotListed() {
        String caller = "\"caller\":{\"kind\":\"thread\",\"logicalAgentId\":\"a1\"}";
        assertTrue(read(record(caller)).isPresent(), "the lines below differ from this one by one fault each");
        for (String line : List.of("", "\n", "not json\n", "[1,2]\n", "\"text\"\n",
                record(caller).substring(0, 60), // cut short
                record(caller).replace(ID, "not-a-uuid"),
                record(caller).replace("\"2026-12-02T14:18:49.048264901Z\"", "\"yesterday\""),
                record(caller).replace("\"timestamp\"", "\"time\""),
                record("\"caller\":\"a1\""),
                record("\"caller\":{\"logicalAgentId\":\"a1\"}"),
                record("\"caller\":{\"kind\":\"\",\"logicalAgentId\":\"a1\"}"),
                record(caller + ",\"input\":{\"tool\":\"x\",\"tool\":\"y\"}"), // a duplicate member, even unlisted
                record(caller + ",\"allow\":false,\"allow\":true"))) {
            assertEquals(Optional.empty(), read(line), line);
        }
    }

    /**
     * The listing read from a record's tree is the one read from its line, or none (then the line is read): also for
     * trees the decision log never writes, with a number, a boolean or null where the schema has a string, an
     * {@code allow} that is no boolean, reasons as an object, a bundle that is no object, and no record at all.
     */
    @Test
    void aTreeListsWhatItsLineListsOrLeavesItToTheLine() throws Exception {
        String caller = "\"caller\":{\"kind\":\"thread\",\"logicalAgentId\":\"a1\",\"threadId\":\"t1\"}";
        String standIn = "{\"length\":5000,\"sha256\":\"" + DIGEST + "\"}";
        List<String> lines = List.of(
                record("\"method\":\"tools/call\",\"tool\":\"wiki_read\"," + caller + ",\"allow\":true,\"reasons\":[],"
                        + "\"bundles\":{\"gatehouse\":{\"revision\":\"rev-7\",\"keyid\":\"default\"}}"),
                record("\"method\":\"tools/call\",\"tool\":" + standIn + ",\"caller\":{\"kind\":\"outside_agent\","
                        + "\"logicalAgentId\":" + standIn + "},\"redacted\":[\"/tool\"],\"allow\":false,"
                        + "\"reasons\":[{\"code\":\"schema\"},{\"code\":" + standIn + "},\"odd\",{\"message\":\"m\"}]"),
                record("\"method\":\"tools/call\"," + caller + ",\"allow\":true,\"reasons\":[],\"quota\":{\"outcome\":"
                        + "\"rate_limited\",\"code\":\"rate_limited\"}"),
                record("\"method\":\"tools/call\"," + caller + ",\"allow\":false,\"reasons\":[{\"code\":"
                        + "\"policy_unavailable\"}],\"fault\":null"),
                record("\"method\":\"notice\",\"caller\":{\"kind\":\"project_notice\",\"logicalAgentId\":\"a1\"},"
                        + "\"reduced\":{\"sha256\":\"" + DIGEST + "\"}"),
                record("\"method\":7," + caller),
                record("\"method\":true," + caller),
                record("\"method\":null,\"tool\":12," + caller),
                record("\"method\":\"tools/call\",\"caller\":{\"kind\":1.50,\"logicalAgentId\":\"a1\"}"),
                record("\"method\":\"tools/call\",\"caller\":{\"kind\":\"thread\",\"logicalAgentId\":[\"a1\"]}"),
                record("\"method\":\"tools/call\"," + caller + ",\"allow\":\"true\""),
                record("\"method\":\"tools/call\"," + caller + ",\"allow\":1"),
                record("\"method\":\"tools/call\"," + caller + ",\"allow\":null"),
                record("\"method\":\"tools/call\"," + caller + ",\"reasons\":{\"a\":{\"code\":\"schema\"},\"b\":2}"),
                record("\"method\":\"tools/call\"," + caller + ",\"reasons\":\"schema\""),
                record("\"method\":\"tools/call\"," + caller + ",\"bundles\":[{\"gatehouse\":{\"revision\":\"r\"}}]"),
                record("\"method\":\"tools/call\"," + caller + ",\"bundles\":{\"gatehouse\":{\"revision\":3}}"),
                record("\"method\":\"tools/call\"," + caller + ",\"quota\":{\"outcome\":\"unavailable\",\"code\":5}"),
                record("\"caller\":\"a1\""),
                record("\"caller\":{\"kind\":\"\",\"logicalAgentId\":\"a1\"}"));
        int listed = 0;
        for (String line : lines) {
            JsonNode tree = PolicyJson.MAPPER.readTree(line);
            Optional<DecisionRecords.Listing> fromLine = DecisionRecords.listing(line.getBytes(StandardCharsets.UTF_8));
            Optional<DecisionRecords.Listing> fromTree = DecisionRecords.listing(tree, UUID.fromString(ID),
                    Instant.parse("2026-12-02T14:18:49.048264901Z"));
            if (fromTree.isPresent()) {
                assertEquals(fromLine, fromTree, line);
                listed++;
            }
        }
        assertEquals(12, listed, "all but a number or boolean where a string or boolean belongs, and no record");
    }
}
