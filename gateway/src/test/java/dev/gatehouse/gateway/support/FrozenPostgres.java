package dev.gatehouse.gateway.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A whole PostgreSQL cluster stopped with SIGSTOP, as a stalled database server looks to its clients: the postmaster
 * (its pid is the first line of {@code <data dir>/postmaster.pid}) first, so it forks no new backend, then every
 * descendant (backends, background workers), until each of them is in state {@code T}. Connections stay open and
 * the kernel keeps accepting new ones into the listen backlog, but nothing answers. {@link #close} sends SIGCONT to
 * all of them; a shutdown hook does it too if the JVM ends first, so a test never leaves a stopped server behind.
 */
public final class FrozenPostgres implements AutoCloseable {

    private final List<Long> stopped;
    private final Thread hook;
    private boolean resumed;

    private FrozenPostgres(List<Long> stopped) {
        this.stopped = stopped;
        this.hook = new Thread(this::resume, "resume-postgres");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Stops the cluster whose data directory is {@code dataDir}; returns once every process of it is stopped. */
    public static FrozenPostgres freeze(Path dataDir) throws IOException, InterruptedException {
        long postmaster = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).strip());
        Set<Long> pids = new LinkedHashSet<>(List.of(postmaster));
        FrozenPostgres frozen = new FrozenPostgres(new ArrayList<>());
        try {
            // The postmaster first, alone, so it forks no more backends; then all of those it has, in one signal; a
            // backend forked meanwhile shows up in the next pass.
            for (int pass = 0; pass < 100; pass++) {
                List<Long> running = pids.stream().filter(pid -> state(pid).filter(s -> s != 'T').isPresent())
                        .toList();
                if (running.isEmpty() && pass > 0) {
                    return frozen;
                }
                if (!running.isEmpty()) {
                    running.stream().filter(pid -> !frozen.stopped.contains(pid)).forEach(frozen.stopped::add);
                    signal("STOP", running);
                }
                ProcessHandle.of(postmaster).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
                Thread.sleep(10);
            }
            throw new IllegalStateException("the PostgreSQL processes " + pids + " did not all stop");
        } catch (IOException | InterruptedException | RuntimeException e) {
            frozen.close();
            throw e;
        }
    }

    /** The pids stopped (postmaster first). */
    public List<Long> pids() {
        return List.copyOf(stopped);
    }

    /** Sends SIGCONT to every stopped process (children first); safe to call more than once. */
    @Override
    public void close() {
        resume();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    private synchronized void resume() {
        if (resumed) {
            return;
        }
        resumed = true;
        try {
            signal("CONT", stopped);
        } catch (IOException | RuntimeException e) {
            System.err.println("could not resume every PostgreSQL process of " + stopped + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The process state letter from /proc/<pid>/stat ({@code T} = stopped), empty when it is gone. */
    private static Optional<Character> state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // "pid (comm) S …": comm may hold spaces and parentheses, the state follows the last ')'.
            return Optional.of(stat.charAt(stat.lastIndexOf(')') + 2));
        } catch (IOException gone) {
            return Optional.empty();
        }
    }

    /** One {@code kill} for all of {@code pids}; fails unless each was signalled or is gone. */
    private static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(kill.getInputStream().readAllBytes());
        if (kill.waitFor() != 0 && pids.stream().anyMatch(pid -> state(pid).isPresent())
                && !output.lines().allMatch(line -> line.contains("No such process"))) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output.strip());
        }
    }
}
