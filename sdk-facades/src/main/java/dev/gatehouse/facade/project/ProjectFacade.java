package dev.gatehouse.facade.project;

import dev.gatehouse.facade.error.FacadeResult;
import java.util.List;

/**
 * The Project Service (docs/domain.md §5, project tools). Implementations add the agent id, the bound project and the
 * service credential; results never carry service-side identity. No method throws for a service failure: it
 * comes back as one kind of docs/domain.md §8. Reads may be retried once when the connection was refused; a submit is
 * never retried and carries a fresh {@code Idempotency-Key}; a submit whose outcome is unknown is
 * {@code uncertain}, with the operation id when the service reported one.
 */
public interface ProjectFacade {

    /** Work runs assigned to the agent in its bound project, with their current revisions. */
    FacadeResult<List<WorkRun>> listWork(ProjectBinding binding);

    /** One work run; NotFound("run") when it does not exist for this agent. */
    FacadeResult<WorkRun> getWork(ProjectBinding binding, String runId);

    /**
     * Submits a work result (mutation). Conflict when a revision is stale; NotFound("run") when the run does not
     * exist; Uncertain on transport failure or deadline after sending.
     */
    FacadeResult<Operation> submitWork(ProjectBinding binding, WorkSubmission submission);

    /** One operation; NotFound("operation") when it does not exist for this agent. */
    FacadeResult<Operation> getOperation(ProjectBinding binding, String operationId);
}
