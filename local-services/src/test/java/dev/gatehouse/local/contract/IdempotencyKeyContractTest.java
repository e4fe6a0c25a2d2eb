package dev.gatehouse.local.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.EnvironmentPreferences;
import dev.gatehouse.facade.host.HostCaller;
import dev.gatehouse.facade.host.HttpHostFacade;
import dev.gatehouse.facade.host.LaunchRequest;
import dev.gatehouse.facade.host.LaunchedThread;
import dev.gatehouse.facade.host.MessageReceipt;
import dev.gatehouse.facade.host.ProjectChanges;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.project.HttpProjectFacade;
import dev.gatehouse.facade.project.Operation;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.WorkSubmission;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code Idempotency-Key} contract of schemas/services/README.md on the local Project and host services, driven
 * through the real facades as the gateway sends it: the same key with the same request is the same operation,
 * answered with the stored outcome and applied once; the same key with another request is refused
 * ({@code idempotency_key_reused}); an operation is found by its key; and keys survive a restart.
 */
class IdempotencyKeyContractTest {

    private static final ProjectBinding A1_DEMO = new ProjectBinding("a1", "ps-demo");
    private static final HostCaller T1 = new HostCaller("a1", Optional.of("t1"));

    @TempDir
    Path parent;
    private Path data;

    @BeforeEach
    void freshDataDirectory() {
        data = parent.resolve("data"); // an absent directory is seeded with the demo
    }

    @Test
    void aSubmitSentTwiceUnderOneKeyIsOneOperationAndIsFoundByItsKeyAfterARestart() {
        IdempotencyKey key = LocalServices.key();
        WorkSubmission submission = new WorkSubmission("run-102", "run:1", "position:1", Map.of("summary", "done"));
        Operation first;
        try (LocalServices services = new LocalServices(data); HttpProjectFacade project = services.project()) {
            first = ok(project.submitWork(A1_DEMO, submission, key));

            assertEquals(first, ok(project.submitWork(A1_DEMO, submission, key)), "the stored outcome");
            assertEquals("run:2", ok(project.getWork(A1_DEMO, "run-102")).runRevision(), "applied once");
            assertEquals(first, ok(project.getOperation(A1_DEMO, key.value())));
            assertEquals(new ServiceError.NotFound("the project service has no such operation", "operation"),
                    error(project.getOperation(A1_DEMO, LocalServices.key().value())), "a key never used");
            assertEquals(new ServiceError.NotFound("the project service has no such operation", "operation"),
                    error(project.getOperation(new ProjectBinding("a2", "ps-demo"), key.value())),
                    "another agent's key");
        }
        try (LocalServices services = new LocalServices(data); HttpProjectFacade project = services.project()) {
            assertEquals(first, ok(project.getOperation(A1_DEMO, key.value())));
            assertEquals(first, ok(project.submitWork(A1_DEMO, submission, key)));
            assertEquals("idempotency_key_reused", ((ServiceError.Rejected) error(project.submitWork(A1_DEMO,
                    new WorkSubmission("run-102", "run:1", "position:1", Map.of("summary", "other")), key)))
                    .serviceCode());
            assertEquals("run:2", ok(project.getWork(A1_DEMO, "run-102")).runRevision());
        }
    }

    @Test
    void aHostMutationSentTwiceUnderOneKeyIsAppliedOnceAndAnsweredAlikeAlsoAfterARestart() {
        IdempotencyKey key = LocalServices.key();
        MessageReceipt first;
        try (LocalServices services = new LocalServices(data); HttpHostFacade host = services.host()) {
            int before = messages(host);
            first = ok(host.send(T1, "t1", "hello", key));

            assertEquals(first, ok(host.send(T1, "t1", "hello", key)));
            assertEquals(before + 1, messages(host), "one message for one key");
            assertEquals("idempotency_key_reused", ((ServiceError.Rejected) error(host.send(T1, "t1", "other",
                    key))).serviceCode());
            assertEquals("idempotency_key_reused", ((ServiceError.Rejected) error(host.send(
                    new HostCaller("a2", Optional.of("t2")), "t1", "hello", key))).serviceCode(),
                    "the key with another caller is another request");
            assertEquals(before + 1, messages(host));

            MessageReceipt fresh = ok(host.send(T1, "t1", "hello", LocalServices.key()));
            assertNotEquals(first.messageId(), fresh.messageId(), "another key is another message");
            assertEquals(before + 2, messages(host));
        }
        try (LocalServices services = new LocalServices(data); HttpHostFacade host = services.host()) {
            int before = messages(host);
            assertEquals(first, ok(host.send(T1, "t1", "hello", key)), "kept with the change");
            assertEquals(before, messages(host));
        }
    }

    @Test
    void everyHostMutationAnswersAKeySentAgainWithItsFirstAnswer() {
        ThreadModes modes = new ThreadModes("auto", "default");
        List<BiFunction<HttpHostFacade, IdempotencyKey, FacadeResult<?>>> mutations = List.of(
                (host, key) -> host.openPreview(T1, "t1", "https://example.test/", key),
                (host, key) -> host.delegate(T1, "t1", "sub task", modes, key),
                (host, key) -> host.launch(T1, new LaunchRequest("demo", "go", Optional.empty(), modes), key),
                (host, key) -> host.send(T1, "t1", "hi", key),
                (host, key) -> host.interrupt(T1, "t3", key),
                (host, key) -> host.updateProject(T1, "demo", new ProjectChanges(Optional.of("Demo"),
                        Optional.empty()), key),
                (host, key) -> host.updatePreferences(T1, new EnvironmentPreferences(Optional.of("auto"),
                        Optional.empty(), Optional.empty()), key));
        try (LocalServices services = new LocalServices(data); HttpHostFacade host = services.host()) {
            for (BiFunction<HttpHostFacade, IdempotencyKey, FacadeResult<?>> mutation : mutations) {
                IdempotencyKey key = LocalServices.key();
                Object first = ok(mutation.apply(host, key));
                assertEquals(first, ok(mutation.apply(host, key)));
            }
            int threads = ok(host.listThreads(Optional.empty())).size();
            IdempotencyKey key = LocalServices.key();
            LaunchRequest launch = new LaunchRequest("demo", "once", Optional.empty(), modes);
            LaunchedThread launched = ok(host.launch(T1, launch, key));

            assertEquals(launched, ok(host.launch(T1, launch, key)));
            assertEquals(threads + 1, ok(host.listThreads(Optional.empty())).size(), "one thread for one key");
        }
    }

    private static int messages(HttpHostFacade host) {
        return ok(host.readThread("t1")).messages().size();
    }

    @SuppressWarnings("unchecked")
    private static <T> T ok(FacadeResult<T> result) {
        assertInstanceOf(FacadeResult.Ok.class, result, result::toString);
        return ((FacadeResult.Ok<T>) result).value();
    }

    private static ServiceError error(FacadeResult<?> result) {
        return assertInstanceOf(FacadeResult.Failed.class, result, result::toString).error();
    }
}
