package dev.gatehouse.gateway.tools.project;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.project.Operation;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.facade.project.WorkSubmission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A project facade that records bindings and arguments and answers with fixed values (or one failure). */
final class RecordingProjects implements ProjectFacade {

    static final WorkRun RUN = new WorkRun("run-101", "Changelog", "open", "run:4", "position:2");
    static final Operation OPERATION = new Operation("op-1", "rejected", "run-101", Optional.of("run_closed"));

    final List<ProjectBinding> bindings = new ArrayList<>();
    final List<Object> arguments = new ArrayList<>();
    /** The key of each submit, in call order. */
    final List<IdempotencyKey> keys = new ArrayList<>();
    FacadeResult.Failed<?> failure;

    @Override
    public FacadeResult<List<WorkRun>> listWork(ProjectBinding binding) {
        return answer(binding, null, List.of(RUN));
    }

    @Override
    public FacadeResult<WorkRun> getWork(ProjectBinding binding, String runId) {
        return answer(binding, runId, RUN);
    }

    @Override
    public FacadeResult<Operation> submitWork(ProjectBinding binding, WorkSubmission submission,
            IdempotencyKey key) {
        keys.add(key);
        return answer(binding, submission, OPERATION);
    }

    @Override
    public FacadeResult<Operation> getOperation(ProjectBinding binding, String operationId) {
        return answer(binding, operationId, OPERATION);
    }

    @SuppressWarnings("unchecked")
    private <T> FacadeResult<T> answer(ProjectBinding binding, Object argument, T value) {
        bindings.add(binding);
        if (argument != null) {
            arguments.add(argument);
        }
        return failure != null ? (FacadeResult<T>) failure : new FacadeResult.Ok<>(value);
    }
}
