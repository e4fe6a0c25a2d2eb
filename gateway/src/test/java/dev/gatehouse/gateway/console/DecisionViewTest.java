package dev.gatehouse.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import org.junit.jupiter.api.Test;

/** What a decision's page shows of its record's obligations and arguments. */
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
}
