package dev.gatehouse.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * local-services and the gateway as two {@code java -jar} processes on free loopback ports, with fresh data and fresh
 * credentials, as the gateway's end-to-end tests start them (gateway/src/test/…/e2e/GatewayStack.java). The gateway's
 * heap is bounded ({@code -Xmx512m}) and its JIT compiler threads live as long as it does, local-services' heap is
 * bounded too ({@code -Xmx256m}). The gateway starts its embedded
 * PostgreSQL on a known port ({@link #databasePort}), so a second replica can share it ({@link #startReplica}).
 * {@link #close} stops every process, and a shutdown hook does it when the harness is interrupted.
 */
final class Stack implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final SecureRandom RANDOM = new SecureRandom();

    final Path workDir;
    final int gatewayPort = freePort();
    final int gatewayPortB = freePort();
    final int localPort = freePort();
    /** The port of the first gateway's embedded PostgreSQL, which a replica ({@link #startReplica}) uses too. */
    final int databasePort = freePort();
    final String adminCredential = secret();
    final String serviceCredential = secret();
    /** The 2026-07-28 request-state key (standard base64 of 32 bytes), the same on every gateway, as replicas need. */
    private final String requestStateKey = Base64.getEncoder().encodeToString(randomBytes());
    private final List<Process> processes = new ArrayList<>();
    private final Thread hook = new Thread(this::stopAll, "stack-stop");
    Process gateway;
    /** The second gateway of an A/B run ({@link #startB}), on {@link #gatewayPortB}; null without one. */
    Process gatewayB;
    Process services;
    private final Map<String, ProcessHandle> databases = new ConcurrentHashMap<>();

    private Stack(Path workDir) {
        this.workDir = workDir;
    }

    /**
     * The stack a harness's arguments name: {@code work}, {@code local-jar}, {@code gateway-jar}, {@code bundle} and
     * {@code gateway-options} ({@link HarnessArgs}).
     */
    static Stack start(Map<String, String> args) throws Exception {
        return start(Path.of(args.get("work")), Path.of(args.get("local-jar")), Path.of(args.get("gateway-jar")),
                Path.of(args.get("bundle")), HarnessArgs.options(args, "gateway-options"));
    }

    static Stack start(Path workDir, Path localJar, Path gatewayJar, Path bundle, List<String> gatewayOptions)
            throws Exception {
        Files.createDirectories(workDir);
        Stack stack = new Stack(workDir.toAbsolutePath());
        Runtime.getRuntime().addShutdownHook(stack.hook);
        try {
            stack.launch(localJar, gatewayJar, bundle, gatewayOptions);
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    private void launch(Path localJar, Path gatewayJar, Path bundle, List<String> gatewayOptions) throws Exception {
        String local = localUrl();
        services = spawn("local-services", List.of("java", "-Xmx256m", "-jar",
                localJar.toAbsolutePath().toString()), Map.of(
                "GATEHOUSE_LOCAL_CREDENTIAL", serviceCredential, "GATEHOUSE_LOCAL_PORT", String.valueOf(localPort),
                "GATEHOUSE_LOCAL_DATA_DIR", workDir.resolve("services").toString()));
        awaitHttp(URI.create(local + "/"), services, "local-services");
        gateway = gateway("gateway", gatewayPort, gatewayJar, bundle, gatewayOptions,
                Map.of("GATEHOUSE_DATABASE_EMBEDDED_PORT", String.valueOf(databasePort)));
    }

    /**
     * Starts a second gateway ({@code gateway-b}: its own port, data directory, PostgreSQL and decision log
     * {@code decisions-b.jsonl}) in front of the same local-services, for before/after runs interleaved in one run.
     */
    void startB(Path gatewayJar, Path bundle, List<String> gatewayOptions) throws Exception {
        gatewayB = gateway("gateway-b", gatewayPortB, gatewayJar, bundle, gatewayOptions, Map.of());
    }

    /**
     * Starts a second replica of the gateway ({@code gateway-b} on {@link #gatewayPortB}: its own data directory and
     * decision log {@code decisions-b.jsonl}) on the first gateway's PostgreSQL as an external database, as
     * {@code make replicas} starts replica B: both then share sessions, agent settings and quota buckets. Its
     * database CPU is counted with the first gateway's ({@link CpuTime}).
     */
    void startReplica(Path gatewayJar, Path bundle, List<String> gatewayOptions) throws Exception {
        gatewayB = gateway("gateway-b", gatewayPortB, gatewayJar, bundle, gatewayOptions, Map.of(
                "GATEHOUSE_DATABASE_EMBEDDED", "false",
                "GATEHOUSE_DATABASE_URL", "jdbc:postgresql://127.0.0.1:" + databasePort + "/gatehouse",
                "GATEHOUSE_DATABASE_USER", "postgres"));
    }

    private Process gateway(String name, int port, Path gatewayJar, Path bundle, List<String> gatewayOptions,
            Map<String, String> extraEnv) throws Exception {
        String local = localUrl();
        String suffix = name.equals("gateway") ? "" : name.substring("gateway".length());
        // Compiler threads that never exit: a thread's CPU time leaves /proc with it, and CpuTime's JIT figure
        // sums the live compiler threads (HotSpot otherwise stops idle ones and starts them again under load).
        List<String> command = new ArrayList<>(List.of("java", "-Xmx512m", "-XX:-UseDynamicNumberOfCompilerThreads",
                "-Dgatehouse.policy.bundle-path=" + bundle.toAbsolutePath(),
                "-Dgatehouse.policy.verification-key=" + Path.of(System.getProperty("gatehouse.bundle.public-key",
                        ".gatehouse-data/bundle-signing/public.pem")).toAbsolutePath(),
                "-Dgatehouse.audit.path=" + workDir.resolve("decisions" + suffix + ".jsonl")));
        command.addAll(gatewayOptions);
        for (String service : List.of("host", "project", "wiki")) {
            command.add("-Dgatehouse.services." + service + ".url=" + local);
        }
        command.addAll(List.of("-jar", gatewayJar.toAbsolutePath().toString()));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("GATEHOUSE_PORT", String.valueOf(port));
        env.put("GATEHOUSE_PUBLIC_URL", url(port));
        env.put("GATEHOUSE_ADMIN_CREDENTIAL", adminCredential);
        env.put("GATEHOUSE_DATA_DIR", workDir.resolve(name + "-data").toString());
        env.put("GATEHOUSE_MCP_REQUEST_STATE_KEY", requestStateKey);
        env.putAll(extraEnv);
        for (String service : List.of("HOST", "PROJECT", "WIKI")) {
            env.put("GATEHOUSE_SERVICES_" + service + "_CREDENTIAL", serviceCredential);
        }
        Process process = spawn(name, command, env);
        awaitHttp(URI.create(url(port) + "/health"), process, name);
        return process;
    }

    /**
     * The PostgreSQL server (postmaster) a gateway started, found by its data directory ({@code <name>-data}) in the
     * server's command line and remembered once found; empty while there is none. Its backends are its descendants.
     */
    Optional<ProcessHandle> database(String name) {
        String dataDir = workDir.resolve(name + "-data").toString();
        // A function that returns null records nothing, so a server not started yet is looked for again next time.
        return Optional.ofNullable(databases.computeIfAbsent(name, key -> ProcessHandle.allProcesses()
                .filter(process -> process.info().command().map(command -> command.endsWith("postgres")).orElse(false)
                        && process.info().arguments().map(arguments -> String.join(" ", arguments)
                                .contains(dataDir)).orElse(false))
                .findFirst().orElse(null))).filter(ProcessHandle::isAlive);
    }

    String baseUrl() {
        return url(gatewayPort);
    }

    String baseUrlB() {
        return url(gatewayPortB);
    }

    private static String url(int port) {
        return "http://127.0.0.1:" + port;
    }

    String localUrl() {
        return "http://127.0.0.1:" + localPort;
    }

    /** An admin API call with the admin credential; fails unless the status is {@code expected}. */
    String admin(String method, String path, String json, int expected) throws IOException, InterruptedException {
        return admin(baseUrl(), method, path, json, expected);
    }

    /** The same against the gateway at {@code base}. */
    String admin(String base, String method, String path, String json, int expected)
            throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + path))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", "Bearer " + adminCredential).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** {@code VmRSS} and {@code VmHWM} of a process, from /proc/<pid>/status, in KiB. */
    static Map<String, Long> memory(Process process) {
        Map<String, Long> memory = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                for (String key : List.of("VmRSS", "VmHWM")) {
                    if (line.startsWith(key + ":")) {
                        memory.put(key + "_kib", Long.parseLong(line.replaceAll("[^0-9]", "")));
                    }
                }
            }
        } catch (IOException e) {
            memory.put("unreadable", -1L);
        }
        return memory;
    }

    String log(String name) {
        try {
            List<String> lines = Files.readAllLines(workDir.resolve(name + ".log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    private synchronized void stopAll() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process process = processes.get(i);
            process.destroy();
            try {
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
    }

    private Process spawn(String name, List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(workDir.resolve(name + ".log").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        processes.add(process);
        return process;
    }

    private void awaitHttp(URI uri, Process process, String name) throws Exception {
        Instant deadline = Instant.now().plusSeconds(300);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited:\n" + log(name));
            }
            try {
                HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException notYet) {
                Thread.sleep(300);
            }
        }
        throw new IllegalStateException(name + " did not start within 300 s:\n" + log(name));
    }

    private static String secret() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes());
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
