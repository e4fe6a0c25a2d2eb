package dev.gatehouse.facade.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.facade.project.WorkSubmission;
import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.facade.wiki.WikiPage;
import dev.gatehouse.facade.wiki.WikiScope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * One suite, every backend (style card 12): whatever stands behind the Wiki and Project facades, the same situation
 * comes back as the same kind of docs/domain.md §8. Subclasses provide the backend (the local services, or WireMock
 * scripted as an outside service) and set the situations up.
 */
public abstract class FacadeErrorContract {

    protected static final WikiScope A1 = new WikiScope("a1", "agents/a1");
    protected static final ProjectBinding A1_DEMO = new ProjectBinding("a1", "ps-demo");
    protected static final String PAGE = "agents/a1/contract.md";

    /** A wiki facade on the backend, sending {@code credential}. */
    protected abstract WikiFacade wiki(String credential);

    /** A project facade on the backend, sending {@code credential}. */
    protected abstract ProjectFacade project(String credential);

    /** The credential the backend accepts. */
    protected abstract String credential();

    /** Makes page {@link #PAGE} exist with {@code content}; returns its revision. */
    protected abstract String givenPage(String content);

    /** A run of a1 in ps-demo that accepts a submit at the returned revisions. */
    protected abstract WorkRun givenOpenRun();

    @Test
    void aStoredPageReadsBackRelativeToTheRoot() {
        String revision = givenPage("contract text");

        assertEquals(new FacadeResult.Ok<>(new WikiPage("contract.md", "contract text", revision)),
                wiki(credential()).read(A1, PAGE));
    }

    @Test
    void aWrongCredentialIsAuthenticationOnEveryService() {
        assertEquals("authentication", kind(wiki("not-the-credential").read(A1, PAGE)));
        assertEquals("authentication", kind(project("not-the-credential").listWork(A1_DEMO)));
    }

    @Test
    void aMissingPageIsNotFoundPage() {
        assertEquals(new ServiceError.NotFound("the wiki service has no such page", "page"),
                error(wiki(credential()).read(A1, "agents/a1/never-written.md")));
    }

    @Test
    void aStaleBaseRevisionOrCreatingOverAPageIsConflictThatSaysToSendTheCurrentBaseRevision() {
        givenPage("contract text");

        for (Optional<String> base : List.of(Optional.of("r999999"), Optional.<String>empty())) {
            ServiceError error = error(wiki(credential()).write(A1, PAGE, "x", base, key()));
            assertEquals(new ServiceError.Conflict("the wiki service reports a conflict (revision_conflict): the page"
                    + " is not at the baseRevision given (for a write without one: the page exists); read the page"
                    + " and send its current revision as baseRevision"), error, base.toString());
        }
    }

    @Test
    void aStaleRunRevisionIsConflictThatNamesTheRevisionArguments() {
        WorkRun run = givenOpenRun();

        ServiceError error = error(project(credential()).submitWork(A1_DEMO, new WorkSubmission(run.runId(),
                "run:0", run.assignmentRevision(), Map.of()), key()));
        assertEquals(new ServiceError.Conflict("the project service reports a conflict (stale_revision): the"
                + " runRevision or assignmentRevision given is not the current one; read the run and send its current"
                + " revisions"), error);
    }

    @Test
    void unknownRunsAndOperationsAreNotFoundWithTheirKind() {
        assertEquals("run", ((ServiceError.NotFound) error(project(credential()).getWork(A1_DEMO, "no-such-run")))
                .what());
        assertEquals("operation", ((ServiceError.NotFound) error(project(credential())
                .getOperation(A1_DEMO, "no-such-operation"))).what());
    }

    /** A key as the gateway derives one, for a decision of its own. */
    protected static IdempotencyKey key() {
        return IdempotencyKey.forDecision(UUID.randomUUID());
    }

    private static ServiceError error(FacadeResult<?> result) {
        return assertInstanceOf(FacadeResult.Failed.class, result, result::toString).error();
    }

    private static String kind(FacadeResult<?> result) {
        return error(result).kind();
    }
}
