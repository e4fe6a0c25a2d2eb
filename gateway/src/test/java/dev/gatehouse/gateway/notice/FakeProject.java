package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.project.NoticeFeed;
import dev.gatehouse.facade.project.NoticePage;
import dev.gatehouse.facade.project.Operation;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.facade.project.WorkSubmission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Project Service as an outside service, in memory: the authoritative open work per agent and project, and the
 * ACKs it received. {@link #credentialRefused} answers every call with 401 ({@code authentication}).
 */
final class FakeProject implements ProjectFacade, NoticeFeed {

    final Map<ProjectBinding, List<WorkRun>> work = new HashMap<>();
    final List<String> acks = new ArrayList<>();
    boolean credentialRefused;
    int listings;
    /** Runs inside the next work listing, between a delivery step's reading of open notices and its aggregate. */
    Runnable duringListing = () -> {
    };

    synchronized void assign(String agentId, String projectId, WorkRun run) {
        work.computeIfAbsent(new ProjectBinding(agentId, projectId), b -> new ArrayList<>()).add(run);
    }

    /** ACK states received for one notice, in order. */
    synchronized List<String> acksOf(String noticeId) {
        return acks.stream().filter(a -> a.startsWith(noticeId + "=")).map(a -> a.substring(noticeId.length() + 1))
                .toList();
    }

    @Override
    public synchronized FacadeResult<List<WorkRun>> listWork(ProjectBinding binding) {
        if (credentialRefused) {
            return refused();
        }
        listings++;
        Runnable once = duringListing;
        duringListing = () -> {
        };
        once.run();
        return new FacadeResult.Ok<>(List.copyOf(work.getOrDefault(binding, List.of())));
    }

    @Override
    public synchronized FacadeResult<String> acknowledge(String clientId, String noticeId, String state) {
        if (credentialRefused) {
            return refused();
        }
        acks.add(noticeId + "=" + state);
        return new FacadeResult.Ok<>(state);
    }

    @Override
    public FacadeResult<NoticePage> poll(String clientId, Optional<String> after, long waitMillis) {
        throw new UnsupportedOperationException("the tests hand pages to NoticeDelivery directly");
    }

    @Override
    public FacadeResult<WorkRun> getWork(ProjectBinding binding, String runId) {
        throw new UnsupportedOperationException();
    }

    @Override
    public FacadeResult<Operation> submitWork(ProjectBinding binding, WorkSubmission submission,
            IdempotencyKey key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public FacadeResult<Operation> getOperation(ProjectBinding binding, String operationId) {
        throw new UnsupportedOperationException();
    }

    private static <T> FacadeResult<T> refused() {
        return new FacadeResult.Failed<>(new ServiceError.Authentication("the Project Service refused the credential"));
    }
}
