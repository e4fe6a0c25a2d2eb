package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.context.TrustedContext.Modes;
import dev.gatehouse.gateway.policy.api.DecisionInput;
import dev.gatehouse.gateway.policy.api.DecisionInput.ArgumentError;
import dev.gatehouse.gateway.policy.api.DecisionInput.ThreadShell;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision input is built from typed values only, matches its schema and carries no credentials. */
class DecisionInputMapperTest {

    private static final TrustedContext OUTSIDE = new TrustedContext("env-SECRET", CallerKind.OUTSIDE_AGENT,
            Optional.empty(), Optional.of("provider-session-SECRET"), Optional.of("provider-instance-SECRET"), "a1",
            "display-name-SECRET", Optional.of("t3-project-SECRET"), Optional.of("project-service-SECRET"),
            new Modes("auto", "default"), Optional.of(new Modes("auto-accept-edits", "plan")), false, false,
            List.of("wiki.read", "orchestration"));

    private static final TrustedContext THREAD = new TrustedContext("env", CallerKind.THREAD, Optional.of("t1"),
            Optional.of("ps"), Optional.of("pi"), "a1", "Agent One", Optional.empty(), Optional.empty(),
            new Modes("full-access", "default"), Optional.empty(), false, true, List.of("wiki.write"));

    @Test
    void aCallMapsEveryFactTheSchemaLists() throws Exception {
        DecisionInput input = new DecisionInput(Optional.of("t3_thread_send"),
                Optional.of(Map.of("threadId", "t9", "message", "héllo wörld ✓")),
                List.of(new ArgumentError("additionalProperties", "", Optional.of("x"), "unknown property x")),
                THREAD, Map.of("t9", new ThreadShell(true, Optional.of("auto"), Optional.of("plan")),
                        "t8", ThreadShell.notFound()));
        ObjectNode json = DecisionInputMapper.forCall(input);
        assertEquals(PolicyJson.MAPPER.readTree("""
                {"tool":"t3_thread_send",
                 "arguments":{"threadId":"t9","message":"héllo wörld ✓"},
                 "argumentErrors":[{"keyword":"additionalProperties","instanceLocation":"","property":"x",
                                    "message":"unknown property x"}],
                 "caller":{"kind":"thread","readOnly":false,"live":true,
                           "limits":{"runtimeMode":"full-access","interactionMode":"default"},
                           "capabilities":["wiki.write"],"logicalAgentId":"a1","threadId":"t1"},
                 "targets":{"threads":{"t8":{"found":false},
                                       "t9":{"found":true,"runtimeMode":"auto","interactionMode":"plan"}}},
                 "wiki":{"root":"agents/a1"}}
                """), json);
        assertEquals(List.of(), Schemas.errors("decision-input.json", json));
        assertEquals("{\"t8\":{\"found\":false},", PolicyJson.write(json.get("targets").get("threads"))
                .substring(0, 22), "targets are written in id order");
    }

    @Test
    void aListingSendsTheCallerOnly() throws Exception {
        ObjectNode json = DecisionInputMapper.forListing(DecisionInput.forListing(OUTSIDE));
        assertEquals(PolicyJson.MAPPER.readTree("""
                {"caller":{"kind":"outside_agent","readOnly":false,"live":false,
                           "limits":{"runtimeMode":"auto","interactionMode":"default"},
                           "modeLimit":{"runtimeMode":"auto-accept-edits","interactionMode":"plan"},
                           "capabilities":["wiki.read","orchestration"],"logicalAgentId":"a1"},
                 "targets":{"threads":{}},
                 "wiki":{"root":"agents/a1"}}
                """), json);
        assertEquals(List.of(), Schemas.errors("decision-input.json", json));
    }

    @Test
    void noCredentialOrProviderIdLeavesTheTrustedContext() {
        DecisionInput input = new DecisionInput(Optional.of("wiki_read"), Optional.of(Map.of("path", "p.md")),
                List.of(), OUTSIDE, Map.of());
        for (ObjectNode json : List.of(DecisionInputMapper.forCall(input), DecisionInputMapper.forListing(input))) {
            assertFalse(PolicyJson.write(json).contains("SECRET"), PolicyJson.write(json));
        }
    }
}
