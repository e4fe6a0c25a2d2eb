package dev.gatehouse.facade.project;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.IdempotencyKey;
import java.util.List;

/**
 * The Project Service (docs/domain.md §5, project tools). Implementations add the agent id, the bound project and the
 * service credential; results never carry service-side identity. No method throws for a service failure: it
 * comes back as one kind of docs/domain.md §8. Reads may be retried once when the connection was refused; a submit is
 * never retried and carries the caller's {@link IdempotencyKey}; a submit whose outcome is unknown is
 * {@code uncertain}, with the operation id the service reported or else that key. Every call ends within the
 * service's deadline.
 */
public interface ProjectFacade {

    /** Work runs assigned to the agent in its bound project, with their current revisions. */
    FacadeResult<List<WorkRun>> listWork(ProjectBinding binding);

    /** One work run; NotFound("run") when it does not exist for this agent. */
    FacadeResult<WorkRun> getWork(ProjectBinding binding, String runId);

    /**
     * Submits a work result (mutation) under idempotency key {@code key}: the service treats the same key with the
     * same request as the same operation and refuses it with another request (Rejected
     * {@code idempotency_key_reused}). Conflict when a revision is stale; NotFound("run") when the run does not
     * exist; Uncertain on transport failure or deadline after sending, carrying {@code key} as the operation id
     * unless the service named one.
     */
    FacadeResult<Operation> submitWork(ProjectBinding binding, WorkSubmission submission, IdempotencyKey key);

    /**
     * One operation, by the id the service gave it or by the {@link IdempotencyKey} it was submitted under (the id of
     * an uncertain submit); NotFound("operation") when this agent has none by that id or key.
     */
    FacadeResult<Operation> getOperation(ProjectBinding binding, String operationId);
}
