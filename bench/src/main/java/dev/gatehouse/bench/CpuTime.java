package dev.gatehouse.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * CPU time (user and system, all threads, in ns) of every process a load series runs on: each gateway's JVM and
 * its PostgreSQL server (the postmaster and its backends), local-services, and this load client. Per call, it says
 * where a gated call's CPU goes on a machine all of them share, and so what the machine could carry at most: the
 * calls/s if the gateway's own JVM cost nothing ({@code ceiling_ops_s}). A process the OS does not report counts 0.
 */
record CpuTime(long gateway, long gatewayB, long database, long databaseB, long backend, long client) {

    static final CpuTime NONE = new CpuTime(0, 0, 0, 0, 0, 0);

    /** Now, for the processes of {@code stack}. */
    static CpuTime of(Stack stack) {
        return new CpuTime(nanos(Optional.of(stack.gateway).map(Process::toHandle)),
                nanos(Optional.ofNullable(stack.gatewayB).map(Process::toHandle)),
                tree(stack.database("gateway")),
                stack.gatewayB == null ? 0 : tree(stack.database("gateway-b")),
                nanos(Optional.of(stack.services.toHandle())), nanos(Optional.of(ProcessHandle.current())));
    }

    CpuTime minus(CpuTime earlier) {
        return new CpuTime(gateway - earlier.gateway, gatewayB - earlier.gatewayB, database - earlier.database,
                databaseB - earlier.databaseB, backend - earlier.backend, client - earlier.client);
    }

    CpuTime plus(CpuTime other) {
        return new CpuTime(gateway + other.gateway, gatewayB + other.gatewayB, database + other.database,
                databaseB + other.databaseB, backend + other.backend, client + other.client);
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
        }
        perCall.put("backend_cpu_us_per_call", LoadHarness.round(backend / n));
        perCall.put("client_cpu_us_per_call", LoadHarness.round(client / n));
        if (gateway >= 0) {
            perCall.put("ceiling_ops_s", Math.round(Runtime.getRuntime().availableProcessors() * 1e6
                    / ((ownDatabase + backend + client) / n)));
        }
        return perCall;
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
