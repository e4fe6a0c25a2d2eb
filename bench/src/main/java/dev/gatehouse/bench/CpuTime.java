package dev.gatehouse.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * CPU time (user and system, all threads, in ns) of every process a load series runs on: each gateway's JVM and
 * its PostgreSQL server (the postmaster and its backends), local-services, and this load client. Per call, it says
 * where a gated call's CPU goes on a machine all of them share, and so what the machine could carry at most: the
 * calls/s if the gateway's own JVM cost nothing ({@code ceiling_ops_s}). A process the OS does not report counts 0.
 *
 * <p>{@code gatewayJit}/{@code gatewayJitB}: the part of each gateway's CPU time its JIT compiler threads took (the
 * threads {@code /proc/<pid>/task/*}/comm names {@code C1 CompilerThre…} and {@code C2 CompilerThre…}, their
 * utime + stime at 100 clock ticks per second, Linux's {@code CLK_TCK}); {@link Stack} keeps those threads alive, as
 * an exited thread's time would leave the sum. A gateway still compiling is not in its
 * steady state: the warm-up runs until this part is small ({@link LoadHarness}, {@code warmup-jit-share}).
 */
record CpuTime(long gateway, long gatewayB, long database, long databaseB, long backend, long client,
        long gatewayJit, long gatewayJitB) {

    static final CpuTime NONE = new CpuTime(0, 0, 0, 0, 0, 0, 0, 0);
    private static final long NANOS_PER_TICK = 10_000_000;

    /** Now, for the processes of {@code stack}. */
    static CpuTime of(Stack stack) {
        return new CpuTime(nanos(Optional.of(stack.gateway).map(Process::toHandle)),
                nanos(Optional.ofNullable(stack.gatewayB).map(Process::toHandle)),
                tree(stack.database("gateway")),
                stack.gatewayB == null ? 0 : tree(stack.database("gateway-b")),
                nanos(Optional.of(stack.services.toHandle())), nanos(Optional.of(ProcessHandle.current())),
                jit(stack.gateway.pid()), stack.gatewayB == null ? 0 : jit(stack.gatewayB.pid()));
    }

    CpuTime minus(CpuTime earlier) {
        return new CpuTime(gateway - earlier.gateway, gatewayB - earlier.gatewayB, database - earlier.database,
                databaseB - earlier.databaseB, backend - earlier.backend, client - earlier.client,
                gatewayJit - earlier.gatewayJit, gatewayJitB - earlier.gatewayJitB);
    }

    CpuTime plus(CpuTime other) {
        return new CpuTime(gateway + other.gateway, gatewayB + other.gatewayB, database + other.database,
                databaseB + other.databaseB, backend + other.backend, client + other.client,
                gatewayJit + other.gatewayJit, gatewayJitB + other.gatewayJitB);
    }

    /** The JIT compiler threads' share of gateway {@code gateway}'s CPU time (0 or 1 for gateway-b), 0 to 1. */
    double jitShare(int gateway) {
        long all = gateway == 0 ? this.gateway : gatewayB;
        return all <= 0 ? 0 : (double) (gateway == 0 ? gatewayJit : gatewayJitB) / all;
    }

    /**
     * µs per call over {@code calls} calls: {@code gateway_cpu_us_per_call} and {@code database_cpu_us_per_call} of
     * gateway {@code gateway} (0, or 1 for gateway-b; none for -1, a direct series), then
     * {@code backend_cpu_us_per_call} (local-services), {@code client_cpu_us_per_call} and, for a gated series,
     * {@code ceiling_ops_s}: the available processors' time divided by the CPU per call of everything but the
     * gateway's JVM.
     */
    Map<String, Object> perCall(int calls, int gateway) {
        double n = Math.max(1, calls) * 1_000.0;
        long ownJvm = gateway == 0 ? this.gateway : gatewayB;
        long ownDatabase = gateway == 0 ? database : databaseB;
        Map<String, Object> perCall = new LinkedHashMap<>();
        if (gateway >= 0) {
            perCall.put("gateway_cpu_us_per_call", LoadHarness.round(ownJvm / n));
            perCall.put("database_cpu_us_per_call", LoadHarness.round(ownDatabase / n));
            perCall.put("gateway_jit_cpu_us_per_call",
                    LoadHarness.round((gateway == 0 ? gatewayJit : gatewayJitB) / n));
        }
        perCall.put("backend_cpu_us_per_call", LoadHarness.round(backend / n));
        perCall.put("client_cpu_us_per_call", LoadHarness.round(client / n));
        if (gateway >= 0) {
            perCall.put("ceiling_ops_s", Math.round(Runtime.getRuntime().availableProcessors() * 1e6
                    / ((ownDatabase + backend + client) / n)));
        }
        return perCall;
    }

    /** CPU time of the JIT compiler threads of process {@code pid}, 0 where /proc does not say. */
    static long jit(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long ticks = 0;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                try {
                    String name = Files.readString(thread.resolve("comm"));
                    if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) {
                        continue;
                    }
                    String stat = Files.readString(thread.resolve("stat"));
                    // After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                } catch (IOException | RuntimeException e) { // the thread ended while it was read
                    continue;
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks * NANOS_PER_TICK;
    }

    private static long tree(Optional<ProcessHandle> root) {
        return root.map(handle -> Stream.concat(Stream.of(handle), handle.descendants())
                .mapToLong(process -> nanos(Optional.of(process))).sum()).orElse(0L);
    }

    private static long nanos(Optional<ProcessHandle> process) {
        return process.flatMap(handle -> handle.info().totalCpuDuration()).map(java.time.Duration::toNanos)
                .orElse(0L);
    }
}
