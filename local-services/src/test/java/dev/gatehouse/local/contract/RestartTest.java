package dev.gatehouse.local.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.host.HostCaller;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.host.HttpHostFacade;
import dev.gatehouse.facade.project.HttpProjectFacade;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.WorkSubmission;
import dev.gatehouse.facade.wiki.HttpWikiFacade;
import dev.gatehouse.facade.wiki.WikiPage;
import dev.gatehouse.facade.wiki.WikiScope;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A restart keeps what was written, and an existing data directory is never re-seeded. */
class RestartTest {

    private static final WikiScope A1 = new WikiScope("a1", "agents/a1");
    private static final ProjectBinding A1_DEMO = new ProjectBinding("a1", "ps-demo");

    @TempDir
    Path parent;

    @Test
    void writesSurviveARestartAndTheSeedIsNotReapplied() {
        Path data = parent.resolve("data");
        try (LocalServices first = new LocalServices(data); HttpWikiFacade wiki = first.wiki();
                HttpProjectFacade project = first.project(); HttpHostFacade host = first.host()) {
            ok(wiki.write(A1, "agents/a1/page.md", "edited", Optional.of("r1"), key()));
            ok(wiki.write(A1, "agents/a1/new.md", "kept", Optional.empty(), key()));
            ok(project.submitWork(A1_DEMO, new WorkSubmission("run-101", "run:4", "position:2", Map.of("x", 1)),
                    key()));
            ok(host.interrupt(new HostCaller("a1", Optional.of("t1")), "t1", key()));
        }

        try (LocalServices second = new LocalServices(data); HttpWikiFacade wiki = second.wiki();
                HttpProjectFacade project = second.project(); HttpHostFacade host = second.host()) {
            assertEquals(new WikiPage("page.md", "edited", "r2"), ok(wiki.read(A1, "agents/a1/page.md")));
            assertEquals(new WikiPage("new.md", "kept", "r1"), ok(wiki.read(A1, "agents/a1/new.md")));
            assertEquals("run:5", ok(project.getWork(A1_DEMO, "run-101")).runRevision());
            assertEquals("committed", ok(project.getOperation(A1_DEMO, "op-1")).status());
            assertEquals(Optional.empty(), ok(host.threadState("t1")).activeRunId());
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T ok(FacadeResult<T> result) {
        assertInstanceOf(FacadeResult.Ok.class, result, result::toString);
        return ((FacadeResult.Ok<T>) result).value();
    }

    private static IdempotencyKey key() {
        return LocalServices.key();
    }
}
