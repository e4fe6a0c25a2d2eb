package dev.gatehouse.gateway.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.gatehouse.gateway.auth.SessionTokens;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged system as `make run` starts it: local-services and the gateway as two {@code java -jar} processes on
 * loopback, with fresh data, fresh credentials and free ports. Jars and bundle come from system properties set by
 * the failsafe configuration in gateway/pom.xml.
 */
final class GatewayStack implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    final Path workDir;
    final int gatewayPort;
    final String adminCredential = SessionTokens.mint();
    private final String oauthSecret = SessionTokens.mint();
    private final List<Process> processes = new ArrayList<>();

    private GatewayStack(Path workDir, int gatewayPort) {
        this.workDir = workDir;
        this.gatewayPort = gatewayPort;
    }

    /** Starts both processes and waits until the gateway's health endpoint answers. */
    static GatewayStack start(Path workDir) throws Exception {
        GatewayStack stack = new GatewayStack(workDir, freePort());
        try {
            stack.launch();
            return stack;
        } catch (Exception | AssertionError e) {
            stack.close();
            throw e;
        }
    }

    private void launch() throws Exception {
        int localPort = freePort();
        String serviceCredential = SessionTokens.mint();
        String local = "http://127.0.0.1:" + localPort;
        Process services = spawn("local-services", List.of("java", "-jar", property("gatehouse.local-services.jar")),
                Map.of("GATEHOUSE_LOCAL_CREDENTIAL", serviceCredential, "GATEHOUSE_LOCAL_PORT",
                        String.valueOf(localPort), "GATEHOUSE_LOCAL_DATA_DIR", workDir.resolve("services").toString()));
        awaitHttp(URI.create(local + "/"), services, "local-services");
        List<String> command = new ArrayList<>(List.of("java",
                "-Dgatehouse.policy.bundle-path=" + Path.of(property("gatehouse.bundle.dir"), "bundle.tar.gz"),
                "-Dgatehouse.audit.path=" + workDir.resolve("decisions.jsonl")));
        for (String service : List.of("host", "project", "wiki")) {
            command.add("-Dgatehouse.services." + service + ".url=" + local);
        }
        command.addAll(List.of("-jar", property("gatehouse.gateway.jar")));
        Process gateway = spawn("gateway", command, Map.of(
                "GATEHOUSE_PORT", String.valueOf(gatewayPort),
                "GATEHOUSE_PUBLIC_URL", baseUrl(),
                "GATEHOUSE_OAUTH_ISSUER", baseUrl(),
                "GATEHOUSE_ADMIN_CREDENTIAL", adminCredential,
                "GATEHOUSE_OAUTH_HS256_SECRET", oauthSecret,
                "GATEHOUSE_SERVICES_HOST_CREDENTIAL", serviceCredential,
                "GATEHOUSE_SERVICES_PROJECT_CREDENTIAL", serviceCredential,
                "GATEHOUSE_SERVICES_WIKI_CREDENTIAL", serviceCredential));
        awaitHttp(URI.create(baseUrl() + "/health"), gateway, "gateway");
    }

    String baseUrl() {
        return "http://127.0.0.1:" + gatewayPort;
    }

    String mcpUrl() {
        return baseUrl() + "/mcp";
    }

    /** Attaches a thread session through the admin API; returns its bearer token. */
    String attach(String agent, String thread, String providerInstance) throws Exception {
        String body = JSON.writeValueAsString(Map.of("environmentId", "local", "threadId", thread,
                "providerSessionId", "ps-" + thread, "providerInstanceId", providerInstance, "logicalAgentId", agent,
                "t3ProjectId", "demo"));
        HttpResponse<String> response = admin("POST", "/admin/sessions", body);
        if (response.statusCode() != 201) {
            throw new AssertionError("attach " + agent + "/" + thread + ": " + response.statusCode());
        }
        return JSON.readTree(response.body()).path("token").asText();
    }

    /** {@code PUT /admin/outside-agents}: registers this stack's issuer + {@code subject} as {@code agentId}. */
    void registerOutsideAgent(String subject, String agentId, String settingsJson) throws Exception {
        String body = settingsJson.replaceFirst("^\\{", "{\"issuer\":\"" + baseUrl() + "\",\"subject\":\"" + subject
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

    HttpResponse<String> admin(String method, String path, String json) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", "Bearer " + adminCredential)
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }

    /** An outside agent's access token for this gateway, signed with the stack's HS256 secret. */
    String outsideAgentToken(String subject, String ceiling) throws JOSEException {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(baseUrl()).audience(mcpUrl()).subject(subject)
                .expirationTime(Date.from(Instant.now().plusSeconds(3600))).claim("t3_mode_ceiling", ceiling).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        jwt.sign(new MACSigner(oauthSecret.getBytes(StandardCharsets.UTF_8)));
        return jwt.serialize();
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

    private void awaitHttp(URI uri, Process process, String name) throws Exception {
        Instant deadline = Instant.now().plusSeconds(90);
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
        throw new AssertionError(name + " did not start within 90 s:\n" + log(name));
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException(name + " is not set; run through `mvn verify` (failsafe)");
        }
        return value;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
