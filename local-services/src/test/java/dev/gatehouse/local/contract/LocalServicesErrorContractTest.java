package dev.gatehouse.local.contract;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.FacadeErrorContract;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.facade.wiki.WikiPage;
import dev.gatehouse.facade.wiki.WikiRevision;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** {@link FacadeErrorContract} against the embedded local services: same situations, same kinds. */
class LocalServicesErrorContractTest extends FacadeErrorContract {

    @TempDir
    static Path data;

    private static LocalServices services;
    private static final List<AutoCloseable> FACADES = new ArrayList<>();

    @BeforeAll
    static void start() {
        services = new LocalServices(data.resolve("contract"));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable facade : FACADES) {
            facade.close();
        }
        services.close();
    }

    @Override
    protected WikiFacade wiki(String credential) {
        return keep(services.wiki(credential));
    }

    @Override
    protected ProjectFacade project(String credential) {
        return keep(services.project(credential));
    }

    @Override
    protected String credential() {
        return LocalServices.CREDENTIAL;
    }

    @Override
    protected String givenPage(String content) {
        WikiFacade wiki = wiki(credential());
        Optional<String> base = wiki.read(A1, PAGE) instanceof FacadeResult.Ok<WikiPage> existing
                ? Optional.of(existing.value().revision()) : Optional.empty();
        FacadeResult<WikiRevision> written = wiki.write(A1, PAGE, content, base, LocalServices.key());
        return ((WikiRevision) assertInstanceOf(FacadeResult.Ok.class, written, written::toString).value())
                .revision();
    }

    @Override
    protected WorkRun givenOpenRun() {
        FacadeResult<WorkRun> run = project(credential()).getWork(A1_DEMO, "run-101");
        return (WorkRun) assertInstanceOf(FacadeResult.Ok.class, run, run::toString).value();
    }

    private static <T extends AutoCloseable> T keep(T facade) {
        FACADES.add(facade);
        return facade;
    }
}
