package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.gateway.gate.GateResult;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Service failures become structured tool errors whose recovery hint fits the toolkit (docs/domain.md §8). */
class ToolReplyTest {

    private static ToolReply failed(String toolkit, ServiceError error) {
        return ToolReply.of(new GateResult.Completed("d-1", toolkit, new ToolOutcome.Failed(error)));
    }

    @Test
    void projectConflictsAndUncertainOutcomesPointAtTheProjectTools() {
        ToolReply conflict = failed("project", new ServiceError.Conflict("stale run revision"));
        ToolReply uncertain = failed("project", new ServiceError.Uncertain("no answer", Optional.of("op-7")));

        assertTrue(conflict.isError());
        assertEquals("conflict", conflict.structuredContent().get("kind"));
        assertEquals("project_work_list", conflict.structuredContent().get("hint"));
        assertEquals("project_operation_get", uncertain.structuredContent().get("hint"));
        assertEquals("op-7", uncertain.structuredContent().get("operationId"));
        assertEquals("d-1", uncertain.structuredContent().get("decisionId"));
    }

    @Test
    void wikiFailuresNeverPointAtProjectTools() {
        assertEquals("wiki_read", failed("wiki", new ServiceError.Conflict("stale base revision"))
                .structuredContent().get("hint"));
        assertEquals("wiki_read", failed("wiki", new ServiceError.Uncertain("no answer", Optional.empty()))
                .structuredContent().get("hint"));
    }

    @Test
    void kindsWithoutARecoveryStepCarryNoHint() {
        ToolReply unavailable = failed("project", new ServiceError.Unavailable("down"));

        assertFalse(unavailable.structuredContent().containsKey("hint"));
        assertEquals("unavailable", unavailable.structuredContent().get("kind"));
    }
}
