package dev.gatehouse.gateway.context;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.ThreadShell.Lookup;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;

/**
 * The thread-shell PIP (docs/domain.md §1): a thread's shell as the host reports it, answered from this replica's
 * {@link ShellWatch} while the freshness rule allows it (the watch connected, heard from the host within
 * {@code gatehouse.host.max-staleness}, the thread kept), otherwise read from the host on the call, and that read is
 * offered to the watch. A read that fails is reported as it failed: {@link Lookup#NOT_FOUND} when the host says the
 * thread does not exist, {@link Lookup#UNAVAILABLE} for any other failure; a failure is never answered from the
 * watch, and the watch is never used past its bound. Answers are counted in {@value #ANSWERS} by {@code source}
 * ({@code watch} or {@code host}).
 */
@Singleton
public class ThreadShells {

    /** Counter: thread shells answered, by source. */
    public static final String ANSWERS = "gatehouse.pip.thread.shells";

    private final HostFacade host;
    private final ShellWatch watch;
    private final Counter fromWatch;
    private final Counter fromHost;

    @Inject
    public ThreadShells(HostFacade host, ShellWatch watch, MeterRegistry meters) {
        this.host = host;
        this.watch = watch;
        this.fromWatch = counter(meters, "watch");
        this.fromHost = counter(meters, "host");
    }

    /** Shells read from the host on every call, with no watch (as with {@code max-staleness: 0s}). */
    public static ThreadShells fresh(HostFacade host) {
        HostWatchProperties off = new HostWatchProperties();
        off.setMaxStaleness(Duration.ZERO);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        return new ThreadShells(host, new ShellWatch(null, off, meters), meters);
    }

    /** The shell of {@code threadId} for this call. */
    public ThreadShell shell(String threadId) {
        Optional<ThreadShell> watched = watch.shell(threadId);
        if (watched.isPresent()) {
            fromWatch.increment();
            return watched.get();
        }
        long generation = watch.generation();
        ThreadShell read = read(threadId);
        watch.offer(threadId, read, generation);
        fromHost.increment();
        return read;
    }

    private ThreadShell read(String threadId) {
        FacadeResult<ThreadState> result = host.threadState(threadId);
        if (result instanceof FacadeResult.Ok<ThreadState> ok && ok.value() != null) {
            return found(ok.value());
        }
        boolean absent = result instanceof FacadeResult.Failed<ThreadState> failed
                && failed.error() instanceof ServiceError.NotFound;
        return ThreadShell.of(absent ? Lookup.NOT_FOUND : Lookup.UNAVAILABLE);
    }

    /** The facts of a thread the host reported. */
    static ThreadShell found(ThreadState state) {
        return ThreadShell.found(state.archived(), state.activeRunId().isPresent(), state.providerInstanceId(),
                state.runtimeMode(), state.interactionMode());
    }

    private static Counter counter(MeterRegistry meters, String source) {
        return Counter.builder(ANSWERS).description("thread shells the PIP answered, from the watch or read from the"
                + " host").tag("source", source).register(meters);
    }
}
