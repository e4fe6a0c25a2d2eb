package dev.gatehouse.gateway.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.auth.SessionTokens;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The packaged system as `make run` starts it: local-services, the local authorization server (local-auth, which
 * approves outside agents o1 as read-only and o2 as full-access) and the gateway as three {@code java -jar}
 * processes on loopback, with fresh data, fresh credentials and free ports. The gateway verifies outside agents'
 * tokens through the authorization server's JWKS and requires the scope {@value #SCOPE}. A replica shares the first
 * stack's local-services, authorization server and credentials. The operator console is on, signing in at the
 * authorization server (user {@code operator} is an operator), with a credential key file of its own. Jars and bundle
 * come from system properties set by the failsafe configuration in gateway/pom.xml. The extra environment a test gives
 * wins over these defaults (e.g. a wrong service credential).
 */
final class GatewayStack implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_PATIENCE = Duration.ofSeconds(180);

    /** The OAuth scope the gateway requires of outside agents' tokens. */
    static final String SCOPE = "mcp";

    final Path workDir;
    final int gatewayPort;
    final String adminCredential;
    private final String serviceCredential;
    int authPort;
    private final Map<String, String> extraEnv;
    private Path bundle = Path.of(property("gatehouse.bundle.dir"), "bundle.tar.gz");
    private String authClients = "o1=read-only,o2=full-access";
    private String local;
    private Map<String, String> localEnv;
    private List<String> gatewayCommand;
    private Map<String, String> gatewayEnv;
    private final List<Process> processes = new ArrayList<>();

    private GatewayStack(Path workDir, int gatewayPort, String adminCredential, String serviceCredential,
            Map<String, String> extraEnv) {
        this.workDir = workDir;
        this.gatewayPort = gatewayPort;
        this.adminCredential = adminCredential;
        this.serviceCredential = serviceCredential;
        this.extraEnv = Map.copyOf(extraEnv);
    }

    /** Starts the three processes and waits until the gateway's health endpoint answers. */
    static GatewayStack start(Path workDir) throws Exception {
        return start(workDir, Map.of());
    }

    /** Starts the three processes, the gateway with {@code env} added to its environment (e.g. an external store). */
    static GatewayStack start(Path workDir, Map<String, String> env) throws Exception {
        GatewayStack stack = new GatewayStack(workDir, freePort(), SessionTokens.mint(), SessionTokens.mint(), env);
        return launched(stack, Optional.empty());
    }

    /**
     * Starts the three processes with the gateway watching a copy of the bundle of {@code make bundle} in the work
     * directory ({@link #bundle()}), so a test can replace it with another revision, as {@code make bundle} does; its
     * Rego bundle is copied beside it, so the console can explain that revision's decisions.
     */
    static GatewayStack startWatching(Path workDir) throws Exception {
        return startWatching(workDir, "");
    }

    /**
     * {@link #startWatching(Path)}, the authorization server also approving {@code moreClients}
     * ({@code client=ceiling,…}, ceilings as the token carries them, whatever the policy knows).
     */
    static GatewayStack startWatching(Path workDir, String moreClients) throws Exception {
        GatewayStack stack = watching(new GatewayStack(workDir, freePort(), SessionTokens.mint(), SessionTokens.mint(),
                Map.of()));
        stack.authClients = stack.authClients + (moreClients.isEmpty() ? "" : "," + moreClients);
        return launched(stack, Optional.empty());
    }

    /**
     * Two replicas as {@link #startWatching(Path)} and {@link #replicaOf} start them, their gateways started side by
     * side (the first's local-services and authorization server up before): the first with {@code firstEnv} in
     * {@code firstDir}, the second with {@code secondEnv} in {@code secondDir}. Both watch the first's bundle copy.
     */
    static List<GatewayStack> startWatchingReplicas(Path firstDir, Map<String, String> firstEnv, Path secondDir,
            Map<String, String> secondEnv) throws Exception {
        GatewayStack first = watching(new GatewayStack(firstDir, freePort(), SessionTokens.mint(),
                SessionTokens.mint(), firstEnv));
        GatewayStack second = new GatewayStack(secondDir, freePort(), first.adminCredential, first.serviceCredential,
                secondEnv);
        try {
            Process firstGateway = first.spawnGateway(Optional.empty());
            second.authPort = first.authPort;
            second.bundle = first.bundle;
            Process secondGateway = second.spawnGateway(Optional.of(first.local));
            first.awaitHttp(URI.create(first.baseUrl() + "/health"), firstGateway, "gateway");
            second.awaitHttp(URI.create(second.baseUrl() + "/health"), secondGateway, "gateway");
            return List.of(first, second);
        } catch (Exception | AssertionError e) {
            second.close();
            first.close();
            throw e;
        }
    }

    /** {@code stack} watching a copy of the bundle in its work directory, with the Rego bundle beside it. */
    private static GatewayStack watching(GatewayStack stack) throws IOException {
        Path rego = stack.bundle.resolveSibling("rego-bundle.tar.gz");
        if (Files.isRegularFile(rego)) {
            Files.copy(rego, stack.workDir.resolve(rego.getFileName()));
        }
        stack.bundle = Files.copy(stack.bundle, stack.workDir.resolve("bundle.tar.gz"));
        return stack;
    }

    /** The bundle file the gateway watches. */
    Path bundle() {
        return bundle;
    }

    /**
     * A second gateway replica beside {@code first}: same credentials and request-state key, same local-services,
     * same bundle file (a watched one is replaced for both at once), its own process and port; {@code env} as for
     * {@link #start(Path, Map)}. Closing it stops only this gateway.
     */
    static GatewayStack replicaOf(GatewayStack first, Path workDir, Map<String, String> env) throws Exception {
        GatewayStack stack = new GatewayStack(workDir, freePort(), first.adminCredential, first.serviceCredential,
                env);
        stack.authPort = first.authPort;
        stack.bundle = first.bundle;
        return launched(stack, Optional.of(first.local));
    }

    private static GatewayStack launched(GatewayStack stack, Optional<String> localServices) throws Exception {
        try {
            stack.launch(localServices);
            return stack;
        } catch (Exception | AssertionError e) {
            stack.close();
            throw e;
        }
    }

    private void launch(Optional<String> localServices) throws Exception {
        Process gateway = spawnGateway(localServices);
        awaitHttp(URI.create(baseUrl() + "/health"), gateway, "gateway");
    }

    /**
     * Starts local-services and the authorization server side by side unless {@code localServices} names running
     * ones, waits for them, then starts the gateway process, not waiting for it.
     */
    private Process spawnGateway(Optional<String> localServices) throws Exception {
        if (localServices.isPresent()) {
            local = localServices.get();
        } else {
            int localPort = freePort();
            local = "http://127.0.0.1:" + localPort;
            localEnv = Map.of("GATEHOUSE_LOCAL_CREDENTIAL", serviceCredential, "GATEHOUSE_LOCAL_PORT",
                    String.valueOf(localPort), "GATEHOUSE_LOCAL_DATA_DIR", workDir.resolve("services").toString());
            Process services = spawn("local-services",
                    List.of("java", "-jar", property("gatehouse.local-services.jar")), localEnv);
            authPort = freePort();
            Process auth = spawn("local-auth", List.of("java", "-jar", property("gatehouse.local-auth.jar")), Map.of(
                    "GATEHOUSE_AUTH_PORT", String.valueOf(authPort),
                    "GATEHOUSE_AUTH_AUDIENCE", mcpUrl(),
                    "GATEHOUSE_AUTH_CLIENTS", authClients,
                    "GATEHOUSE_AUTH_SCOPE", SCOPE,
                    "GATEHOUSE_AUTH_KEY_FILE", workDir.resolve("auth/signing-key.json").toString()));
            awaitHttp(URI.create(local + "/"), services, "local-services");
            awaitHttp(URI.create(issuer() + "/.well-known/oauth-authorization-server"), auth, "local-auth");
        }
        List<String> command = new ArrayList<>(List.of("java",
                "-Dgatehouse.policy.bundle-path=" + bundle,
                "-Dgatehouse.policy.verification-key=" + property("gatehouse.policy.verification-key"),
                "-Dgatehouse.audit.path=" + workDir.resolve("decisions.jsonl")));
        for (String service : List.of("host", "project", "wiki")) {
            command.add("-Dgatehouse.services." + service + ".url=" + local);
        }
        command.addAll(List.of("-jar", property("gatehouse.gateway.jar")));
        Path credentialKey = workDir.resolve("credential-key");
        if (!Files.exists(credentialKey)) {
            byte[] key = new byte[32];
            new java.security.SecureRandom().nextBytes(key);
            Files.writeString(credentialKey, Base64.getEncoder().encodeToString(key));
        }
        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "GATEHOUSE_CONSOLE_ENABLED", "true",
                "GATEHOUSE_CONSOLE_ISSUER", issuer(),
                "GATEHOUSE_CONSOLE_CLIENT_ID", "gatehouse-console",
                "GATEHOUSE_CONSOLE_CLIENT_SECRET", "local-secret",
                "GATEHOUSE_CREDENTIALS_KEY_FILE", credentialKey.toString()));
        env.putAll(Map.of(
                "GATEHOUSE_PORT", String.valueOf(gatewayPort),
                "GATEHOUSE_PUBLIC_URL", baseUrl(),
                "GATEHOUSE_OAUTH_ISSUER", issuer(),
                "GATEHOUSE_OAUTH_JWKS_URL", issuer() + "/jwks",
                "GATEHOUSE_OAUTH_SCOPE", SCOPE,
                "GATEHOUSE_ADMIN_CREDENTIAL", adminCredential,
                "GATEHOUSE_SERVICES_HOST_CREDENTIAL", serviceCredential,
                "GATEHOUSE_SERVICES_PROJECT_CREDENTIAL", serviceCredential,
                "GATEHOUSE_SERVICES_WIKI_CREDENTIAL", serviceCredential,
                "GATEHOUSE_MCP_REQUEST_STATE_KEY", requestStateKey(adminCredential)));
        env.putAll(extraEnv);
        gatewayCommand = List.copyOf(command);
        gatewayEnv = Map.copyOf(env);
        return spawn("gateway", command, env);
    }

    /** Stops the gateway process (not local-services) and starts it again with the same data, port and settings. */
    void restartGateway() throws Exception {
        Process old = processes.remove(processes.size() - 1);
        old.destroy();
        if (!old.waitFor(30, TimeUnit.SECONDS)) {
            old.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        Files.move(workDir.resolve("gateway.log"), workDir.resolve("gateway-before-restart.log"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Process gateway = spawn("gateway", gatewayCommand, gatewayEnv);
        awaitHttp(URI.create(baseUrl() + "/health"), gateway, "gateway");
    }

    /**
     * Stops local-services (the first process of a stack that started it) and starts it again on the same port:
     * with the same data, or, when {@code newData}, with a fresh data directory (a host that lost its state and
     * starts a new history of thread events). The gateway keeps running.
     */
    void restartLocalServices(boolean newData) throws Exception {
        Process old = processes.get(0);
        old.destroy();
        if (!old.waitFor(30, TimeUnit.SECONDS)) {
            old.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        Map<String, String> env = new java.util.HashMap<>(localEnv);
        if (newData) {
            env.put("GATEHOUSE_LOCAL_DATA_DIR", workDir.resolve("services-" + System.nanoTime()).toString());
        }
        Files.move(workDir.resolve("local-services.log"), workDir.resolve("local-services-" + System.nanoTime()
                + ".log"));
        Process services = spawn("local-services", List.of("java", "-jar", property("gatehouse.local-services.jar")),
                env);
        processes.remove(services);
        processes.set(0, services);
        awaitHttp(URI.create(local + "/"), services, "local-services");
    }

    /**
     * Kills the gateway process with SIGKILL ({@code kill -9}: no shutdown hook, no drain, no goodbye to PostgreSQL);
     * local-services and the authorization server keep running.
     */
    void killGateway() throws InterruptedException {
        Process gateway = processes.get(processes.size() - 1);
        gateway.destroyForcibly();
        gateway.waitFor();
    }

    /** The credential local-services accepts (for a test that enters it as a rotated service credential). */
    String serviceCredential() {
        return serviceCredential;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + gatewayPort;
    }

    String mcpUrl() {
        return baseUrl() + "/mcp";
    }

    /** The local authorization server's issuer. */
    String issuer() {
        return "http://127.0.0.1:" + authPort + "/gatehouse";
    }

    /** Attaches a thread session through the admin API; returns its bearer token. */
    String attach(String agent, String thread, String providerInstance) throws Exception {
        String body = JSON.writeValueAsString(Map.of("environmentId", "local", "threadId", thread,
                "providerSessionId", "ps-" + thread, "providerInstanceId", providerInstance, "logicalAgentId", agent,
                "t3ProjectId", "demo", "provider", "codex"));
        HttpResponse<String> response = admin("POST", "/admin/sessions", body);
        if (response.statusCode() != 201) {
            throw new AssertionError("attach " + agent + "/" + thread + ": " + response.statusCode());
        }
        return JSON.readTree(response.body()).path("token").asText();
    }

    /** Attaches a thread session; returns {@code {sessionId, token}}. */
    Map<String, String> attachSession(String agent, String thread, String providerInstance) throws Exception {
        String body = JSON.writeValueAsString(Map.of("environmentId", "local", "threadId", thread,
                "providerSessionId", "ps-" + thread, "providerInstanceId", providerInstance, "logicalAgentId", agent,
                "t3ProjectId", "demo", "provider", "codex"));
        HttpResponse<String> response = admin("POST", "/admin/sessions", body);
        if (response.statusCode() != 201) {
            throw new AssertionError("attach " + agent + "/" + thread + ": " + response.statusCode());
        }
        var json = JSON.readTree(response.body());
        return Map.of("sessionId", json.path("sessionId").asText(), "token", json.path("token").asText());
    }

    /** {@code PUT /admin/outside-agents}: registers this stack's issuer + {@code subject} as {@code agentId}. */
    void registerOutsideAgent(String subject, String agentId, String settingsJson) throws Exception {
        String body = settingsJson.replaceFirst("^\\{", "{\"issuer\":\"" + issuer() + "\",\"subject\":\"" + subject
                + "\",\"logicalAgentId\":\"" + agentId + "\",");
        HttpResponse<String> response = admin("PUT", "/admin/outside-agents", body);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("registration failed: " + response.statusCode() + " " + response.body());
        }
    }

    /** {@code PUT /admin/agents/{agent}} with a JSON body. */
    void settings(String agent, String json) throws Exception {
        HttpResponse<String> response = admin("PUT", "/admin/agents/" + agent, json);
        if (response.statusCode() != 200) {
            throw new AssertionError("settings of " + agent + ": " + response.statusCode());
        }
    }

    /**
     * A call to local-services with the service credential, on behalf of {@code agentId} when given (for the demo
     * routes and host reads the gateway itself never makes).
     */
    HttpResponse<String> service(String method, String path, String json, Optional<String> agentId)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(local + path))
                .method(method, HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", "Bearer " + serviceCredential)
                .header("Content-Type", "application/json");
        agentId.ifPresent(agent -> request.header("Gatehouse-Agent-Id", agent));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> admin(String method, String path, String json) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", "Bearer " + adminCredential)
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * An outside agent's access token from the authorization server (client credentials, RFC 6749 §4.4, for this
     * gateway's resource, RFC 8707); its ceiling is the one the server approved for {@code client}.
     */
    String outsideAgentToken(String client) throws IOException, InterruptedException {
        String form = "grant_type=client_credentials&scope=" + SCOPE + "&resource="
                + URLEncoder.encode(mcpUrl(), StandardCharsets.UTF_8);
        String basic = Base64.getEncoder().encodeToString((client + ":local-secret").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(issuer() + "/token"))
                .header("Authorization", "Basic " + basic)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("token for " + client + ": " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body()).path("access_token").asText();
    }

    /** The last lines of a process log, for failure messages. */
    String log(String name) throws IOException {
        List<String> lines = Files.readAllLines(workDir.resolve(name + ".log"));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Override
    public void close() throws InterruptedException {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process process = processes.get(i);
            process.destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private Process spawn(String name, List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(workDir.resolve(name + ".log").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        processes.add(process);
        return process;
    }

    /**
     * Waits for {@code uri} to answer while {@code process} lives. The bound is generous: on the shared two-core
     * machines a gateway's start (its Wasm bundle compiled and smoke-tested) has taken over 90 s under others' load.
     */
    private void awaitHttp(URI uri, Process process, String name) throws Exception {
        Instant deadline = Instant.now().plus(START_PATIENCE);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited:\n" + log(name));
            }
            try {
                HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException notYet) {
                Thread.sleep(300);
            }
        }
        throw new AssertionError(name + " did not start within " + START_PATIENCE.toSeconds() + " s:\n" + log(name));
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException(name + " is not set; run through `mvn verify` (failsafe)");
        }
        return value;
    }

    /** One request-state key for the replicas sharing an admin credential (base64 of 32 bytes). */
    private static String requestStateKey(String seed) {
        try {
            return Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(("request-state:" + seed).getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
