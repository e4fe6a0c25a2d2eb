package dev.gatehouse.gateway.tools.project;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.WorkSubmission;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.tools.Contexts;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Project handlers: binding from the trusted context only, runs without service identity, failures as values. */
class ProjectToolsTest {

    /** The decision that allowed each call here; its mutation is sent under the key derived from it. */
    static final UUID DECISION = UUID.fromString("0b7e8f3c-2d4a-4c1e-9f6b-5a3d2c1b0e9f");

    private static final Map<String, Object> RUN_VIEW = Map.of("runId", "run-101", "title", "Changelog",
            "status", "open", "runRevision", "run:4", "assignmentRevision", "position:2");

    private final RecordingProjects projects = new RecordingProjects();

    @Test
    void listAndGetUseTheBoundProjectAndShowNoServiceIdentity() {
        ToolOutcome listed = new WorkListTool(projects).handle(call(Map.of(), Contexts.thread("a1", "t1")));
        ToolOutcome got = new WorkGetTool(projects).handle(call(Map.of("runId", "run-101"),
                Contexts.thread("a1", "t1")));

        assertEquals(new ToolOutcome.Succeeded(Map.of("runs", List.of(RUN_VIEW))), listed);
        assertEquals(new ToolOutcome.Succeeded(RUN_VIEW), got);
        assertEquals(List.of(new ProjectBinding("a1", "ps-demo"), new ProjectBinding("a1", "ps-demo")),
                projects.bindings);
    }

    @Test
    void submitPassesBusinessDataAndProjectsTheOperation() {
        Map<String, Object> result = Map.of("summary", "done");
        ToolOutcome outcome = new WorkSubmitTool(projects).handle(call(Map.of("runId", "run-101", "runRevision",
                "run:4", "assignmentRevision", "position:2", "result", result), Contexts.thread("a2", "t2")));

        assertEquals(List.of(new WorkSubmission("run-101", "run:4", "position:2", result)), projects.arguments);
        assertEquals(List.of(new ProjectBinding("a2", "ps-demo")), projects.bindings);
        assertEquals(new ToolOutcome.Succeeded(Map.of("operationId", "op-1", "status", "rejected", "runId",
                "run-101", "reason", "run_closed")), outcome);
        assertEquals(List.of(IdempotencyKey.forDecision(DECISION)), projects.keys);
    }

    @Test
    void anUncertainSubmitComesBackWithItsOperation() {
        ServiceError uncertain = new ServiceError.Uncertain("unknown", Optional.of("op-7"));
        projects.failure = new FacadeResult.Failed<>(uncertain);

        assertEquals(new ToolOutcome.Failed(uncertain, Optional.of("project_operation_get")), new OperationGetTool(projects).handle(call(Map.of(
                "operationId", "op-7"), Contexts.thread("a1", "t1"))));
    }

    /**
     * Whether a project is bound is the policy's decision (project_not_bound, GateTest); a handler reached without one
     * only fails closed, for every project tool, and calls nothing.
     */
    @Test
    void anAllowedCallWithoutABoundProjectFailsClosedWithoutACall() {
        TrustedContext unbound = Contexts.outside("a1");
        ToolOutcome failed = new ToolOutcome.Failed(new ServiceError.Rejected(
                "the allowed call found no bound Project Service project", "binding_missing"), Optional.empty());

        assertEquals(failed, new WorkListTool(projects).handle(call(Map.of(), unbound)));
        assertEquals(failed, new WorkGetTool(projects).handle(call(Map.of("runId", "r1"), unbound)));
        assertEquals(failed, new OperationGetTool(projects).handle(call(Map.of("operationId", "op-7"), unbound)));
        assertEquals(failed, new WorkSubmitTool(projects).handle(call(Map.of("runId", "r1", "runRevision", "run:1",
                "assignmentRevision", "position:1", "result", Map.of()), unbound)));
        assertEquals(List.of(), projects.bindings);
    }

    private static ToolCall call(Map<String, Object> arguments, TrustedContext context) {
        return new ToolCall(arguments, Obligations.NONE, context, DECISION);
    }
}
