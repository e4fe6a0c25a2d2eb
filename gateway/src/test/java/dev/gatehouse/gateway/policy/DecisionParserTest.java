package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Only the exact shape of schemas/decision.json decides: anything else from the PDP is a fault that denies. */
class DecisionParserTest {

    private static final String DENY = "{\"allow\":false,\"reasons\":[{\"code\":\"unknown_tool\",\"message\":\"m\"}],"
            + "\"obligations\":{}}";

    @Test
    void anAllowWithObligationsIsDecided() {
        Decision decision = decided("[{\"result\":{\"allow\":true,\"reasons\":[],\"obligations\":"
                + "{\"modes\":{\"runtimeMode\":\"auto\",\"interactionMode\":\"plan\"},"
                + "\"wikiPaths\":{\"from\":\"agents/a1/p.md\",\"to\":\"agents/a1/q.md\"},"
                + "\"wikiRoot\":\"agents/a1\"}}}]");
        assertEquals(true, decision.allow());
        assertEquals(new Obligations(Map.of("runtimeMode", "auto", "interactionMode", "plan"),
                Map.of("from", "agents/a1/p.md", "to", "agents/a1/q.md"), Optional.of("agents/a1")),
                decision.obligations());
        assertEquals("rev", decision.bundleRevision());
    }

    @Test
    void aDenialKeepsReasonsInPolicyOrder() {
        Decision decision = decided("[{\"result\":{\"allow\":false,\"reasons\":[{\"code\":\"schema\",\"message\":\"a\"},"
                + "{\"code\":\"path_invalid\",\"message\":\"b\"}],\"obligations\":{}}}]");
        assertEquals(List.of(new Decision.Reason("schema", "a"), new Decision.Reason("path_invalid", "b")),
                decision.reasons());
        assertEquals(Obligations.NONE, decision.obligations());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            []                                                                         | undefined
            {}                                                                         | malformed_result
            [{}]                                                                       | malformed_result
            [{"result":{}}]                                                            | malformed_result
            [{"result":[true]}]                                                        | malformed_result
            [{"result":true}]                                                          | malformed_result
            [{"result":{"allow":"true","reasons":[],"obligations":{}}}]                | malformed_result
            [{"result":{"allow":1,"reasons":[],"obligations":{}}}]                     | malformed_result
            [{"result":{"allow":true,"obligations":{}}}]                               | malformed_result
            [{"result":{"allow":true,"reasons":[]}}]                                   | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{},"extra":1}}]        | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":[]}}]                  | malformed_result
            [{"result":{"allow":true,"reasons":{},"obligations":{}}}]                  | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"wikiPaths":{"path":1}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"other":"x"}}}]       | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"modes":{"runtimeMode":1}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"modes":["auto"]}}}]   | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"wikiPath":"agents/a1/x"}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"wikiPaths":"agents/a1/x"}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"wikiRoot":["agents/a1"]}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"wikiRoot":null}}}]    | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"wikiRoots":"agents/a1"}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[{"code":"schema","message":"m"}],"obligations":{}}}] | malformed_result
            [{"result":{"allow":false,"reasons":[],"obligations":{}}}]                 | malformed_result
            [{"result":{"allow":false,"reasons":["schema"],"obligations":{}}}]         | malformed_result
            [{"result":{"allow":false,"reasons":[{"code":"schema"}],"obligations":{}}}] | malformed_result
            [{"result":{"allow":false,"reasons":[{"code":1,"message":"m"}],"obligations":{}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{}}},{"result":{"allow":true,"reasons":[],"obligations":{}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{}},"x":1}]            | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"read","ratePerMinute":60}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"read","ratePerMinute":60,"burst":5,"extra":1}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"read","ratePerMinute":0,"burst":5}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"read","ratePerMinute":-1,"burst":5}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"read","ratePerMinute":1.5,"burst":5}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"read","ratePerMinute":"60","burst":5}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"read","ratePerMinute":60,"burst":10000000000}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"read","ratePerMinute":60,"burst":null}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"","class":"read","ratePerMinute":60,"burst":5}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":"","ratePerMinute":60,"burst":5}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":1,"class":"read","ratePerMinute":60,"burst":5}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":{"bucket":"thread/read/a1","class":["read"],"ratePerMinute":60,"burst":5}}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":"thread/read/a1"}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":null}}}] | malformed_result
            [{"result":{"allow":true,"reasons":[],"obligations":{"quota":[]}}}] | malformed_result
            """)
    void everyOtherShapeIsAFault(String raw, String code) {
        PolicyOutcome<Decision> outcome = DecisionParser.decision(resultSet(raw), System.nanoTime());
        PolicyFault fault = assertInstanceOf(PolicyOutcome.Failed.class, outcome).fault();
        assertEquals(code, fault.code());
    }

    /** A whole number written with a fraction of zero is whole; the numbers are never rounded. */
    @Test
    void aQuotaIsDecidedWithItsWholeNumbers() {
        Decision decision = decided("[{\"result\":{\"allow\":true,\"reasons\":[],\"obligations\":{\"quota\":"
                + "{\"bucket\":\"thread/read/a1\",\"class\":\"read\",\"ratePerMinute\":60.0,\"burst\":5}}}}]");
        assertEquals(Optional.of(new Quota("thread/read/a1", "read", 60, 5)), decision.obligations().quota());
    }

    @Test
    void aBucketLongerThanTheLimitIsAFault() {
        String bucket = "b".repeat(Quota.MAX_BUCKET_CHARS + 1);
        PolicyOutcome<Decision> outcome = DecisionParser.decision(resultSet("[{\"result\":{\"allow\":true,"
                + "\"reasons\":[],\"obligations\":{\"quota\":{\"bucket\":\"" + bucket + "\",\"class\":\"read\","
                + "\"ratePerMinute\":60,\"burst\":5}}}}]"), System.nanoTime());
        assertEquals(PolicyFault.MALFORMED_RESULT,
                assertInstanceOf(PolicyOutcome.Failed.class, outcome).fault().code());
    }

    @Test
    void aDuplicateMemberCannotSmuggleAnAllow() {
        assertThrows(JsonProcessingException.class, () -> PolicyJson.MAPPER.readTree(
                "[{\"result\":{\"allow\":false,\"allow\":true,\"reasons\":[],\"obligations\":{}}}]"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            []                            | undefined
            [{"result":{}}]               | malformed_result
            [{"result":"wiki_read"}]      | malformed_result
            [{"result":["wiki_read",1]}]  | malformed_result
            [{"result":[]},{"result":[]}] | malformed_result
            """)
    void visibleToolsMustBeAnArrayOfStrings(String raw, String code) {
        PolicyOutcome<VisibleTools> outcome = DecisionParser.visibleTools(resultSet(raw), System.nanoTime());
        assertEquals(code, assertInstanceOf(PolicyOutcome.Failed.class, outcome).fault().code());
    }

    @Test
    void visibleToolsKeepPolicyOrder() {
        PolicyOutcome<VisibleTools> outcome = DecisionParser.visibleTools(
                resultSet("[{\"result\":[\"t3_thread_list\",\"wiki_read\"]}]"), System.nanoTime());
        VisibleTools tools = (VisibleTools) assertInstanceOf(PolicyOutcome.Decided.class, outcome).value();
        assertEquals(List.of("t3_thread_list", "wiki_read"), tools.names());
    }

    @Test
    void theParsedDecisionWritesBackToTheSameJson() throws Exception {
        String raw = "{\"allow\":true,\"reasons\":[],\"obligations\":{\"modes\":{\"runtimeMode\":\"auto\","
                + "\"interactionMode\":\"plan\"},\"wikiPaths\":{\"path\":\"agents/a1/x\"},\"quota\":{\"bucket\":"
                + "\"thread/read/a1\",\"class\":\"read\",\"ratePerMinute\":1200,\"burst\":120}}}";
        Decision decision = decided("[{\"result\":" + raw + "}]");
        assertEquals(PolicyJson.MAPPER.readTree(raw), DecisionJson.decision(decision));
        assertEquals(PolicyJson.MAPPER.readTree(DENY), DecisionJson.decision(decided("[{\"result\":" + DENY + "}]")));
    }

    private static Decision decided(String raw) {
        PolicyOutcome<Decision> outcome = DecisionParser.decision(resultSet(raw), System.nanoTime());
        return (Decision) assertInstanceOf(PolicyOutcome.Decided.class, outcome, () -> outcome.toString()).value();
    }

    private static ResultSet resultSet(String raw) {
        try {
            return new ResultSet(PolicyJson.MAPPER.readTree(raw), "rev");
        } catch (Exception e) {
            throw new IllegalArgumentException(raw, e);
        }
    }

}
