package dev.gatehouse.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a decision's page shows of its record's obligations, arguments and reasons. */
class DecisionViewTest {

    private static JsonNode json(String text) throws Exception {
        return PolicyJson.MAPPER.readTree(text);
    }

    @Test
    void noObligationsShowNothingAndSomeShowAsIndentedJson() throws Exception {
        assertEquals("", DecisionView.obligations(json("{\"obligations\":{}}")), "a denial logs {}");
        assertEquals("", DecisionView.obligations(json("{\"decision_id\":\"x\"}")), "a fault logs none");
        assertEquals("{\n  \"quota\" : {\n    \"class\" : \"read\"\n  }\n}",
                DecisionView.obligations(json("{\"obligations\":{\"quota\":{\"class\":\"read\"}}}")));
    }

    @Test
    void emptyArgumentsStillShowAsAnEmptyObject() throws Exception {
        assertEquals("{ }", DecisionView.pretty(json("{}")), "a call without arguments says so");
        assertEquals("", DecisionView.pretty(json("{}").path("arguments")));
    }

    @Test
    void aQuotaRefusalIsAReasonInTheWordsOfItsRuleNamedOnce() throws Exception {
        List<DecisionView.Reason> overBudget = DecisionView.reasons(json("{\"allow\":true,\"reasons\":[],"
                + "\"quota\":{\"outcome\":\"rate_limited\",\"code\":\"rate_limited\",\"limit\":\"budget\","
                + "\"bucket\":\"thread/wiki_write/a1\",\"class\":\"wiki_write\",\"budget\":\"shared\","
                + "\"retryAfterMs\":750}}"), Map.of());
        assertEquals(1, overBudget.size());
        assertEquals("rate_limited", overBudget.get(0).code());
        assertEquals("no token in bucket thread/wiki_write/a1 (class wiki_write, shared budget); retry after 750 ms",
                overBudget.get(0).message());
        assertEquals(Optional.of(DecisionView.QUOTA), overBudget.get(0).entry());

        List<DecisionView.Reason> overShare = DecisionView.reasons(json("{\"allow\":false,\"reasons\":"
                + "[{\"code\":\"rate_limited\",\"message\":\"m\"}],\"quota\":{\"outcome\":\"rate_limited\","
                + "\"code\":\"rate_limited\",\"limit\":\"share\",\"retryAfterMs\":250}}"), Map.of());
        assertEquals(1, overShare.size(), "the record's own reason, not a second one");
        assertEquals(Optional.of(DecisionView.QUOTA), overShare.get(0).entry());

        assertEquals(0, DecisionView.reasons(json("{\"allow\":true,\"reasons\":[],\"quota\":{\"outcome\":"
                + "\"admitted\"}}"), Map.of()).size(), "an admitted call has no reason");
    }
}
