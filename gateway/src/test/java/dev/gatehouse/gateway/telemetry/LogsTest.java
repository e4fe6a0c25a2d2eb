package dev.gatehouse.gateway.telemetry;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.support.HostStubs;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Map;
import java.util.Optional;
import net.logstash.logback.encoder.LogstashEncoder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/**
 * Logs: the production configuration writes one JSON object per line, and no log line (at DEBUG for the gateway's
 * own packages, in the production JSON encoding) nor the decision log ever holds a credential the test used: the
 * admin credential and a wrong guess of it, the minted session token, a forged bearer token, the service credential
 * the facades send, and a credential-looking tool argument.
 */
@MicronautTest(transactional = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LogsTest implements TestPropertyProvider {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN = "admin-" + random();
    private static final String SERVICE = "service-" + random();
    private static final String META = ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private final WireMockServer services = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    @Inject
    EmbeddedServer server;
    @Inject
    AgentSettingsStore settings;
    @Inject
    DecisionLog decisions;

    private static String random() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public Map<String, String> getProperties() {
        services.start();
        HostStubs.liveThreadT1(services);
        services.stubFor(WireMock.any(urlPathEqualTo("/wiki/v1/pages")).willReturn(aResponse().withStatus(500)));
        Map<String, String> properties = new HashMap<>();
        properties.put("micronaut.server.port", "-1");
        properties.put("gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                + "/bundle.tar.gz");
        properties.put("gatehouse.audit.path", "target/test-decisions/logs-" + random() + ".jsonl");
        properties.put("gatehouse.admin.credential", ADMIN);
        properties.put("gatehouse.services.host.url", services.baseUrl());
        properties.put("gatehouse.services.host.credential", SERVICE);
        properties.put("gatehouse.services.wiki.url", services.baseUrl());
        properties.put("gatehouse.services.wiki.credential", SERVICE);
        properties.put("logger.levels.dev.gatehouse", "DEBUG");
        properties.put("logger.levels.io.micronaut.http", "DEBUG");
        return properties;
    }

    @AfterAll
    void stop() {
        services.stop();
    }

    /** Every event of this JVM from now on, encoded as production encodes it (WireMock's own loggers left out). */
    private OutputStreamAppender<ILoggingEvent> capture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LogstashEncoder encoder = new LogstashEncoder();
        encoder.setContext(context);
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.setOutputStream(captured);
        appender.addFilter(new ch.qos.logback.core.filter.Filter<>() {
            @Override
            public ch.qos.logback.core.spi.FilterReply decide(ILoggingEvent event) {
                return event.getLoggerName().startsWith("wiremock") || event.getLoggerName().startsWith(
                        "com.github.tomakehurst") ? ch.qos.logback.core.spi.FilterReply.DENY
                        : ch.qos.logback.core.spi.FilterReply.NEUTRAL;
            }
        });
        appender.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
        return appender;
    }

    private HttpResponse<String> admin(String method, String path, String body, String credential) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.getPort() + path)).method(method, HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + credential).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The trace id of the calls' {@code traceparent}. */
    private static final String CALLER_TRACE = "0af7651916cd43dd8448eb211c80319c";

    private RawHttp.Response call(String token, String tool, String arguments) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + META + "}}";
        return RawHttp.post(server.getPort(), body, "Authorization: Bearer " + token, "Mcp-Method: tools/call",
                "Mcp-Name: " + tool, "MCP-Protocol-Version: 2026-07-28",
                "traceparent: 00-" + CALLER_TRACE + "-00f067aa0ba902b7-01");
    }

    @Test
    void noLogLineHoldsACredentialTheCallsUsed() throws Exception {
        OutputStreamAppender<ILoggingEvent> appender = capture();
        String forged = "forged-" + random();
        String guess = "admin-" + random();
        String argumentSecret = "arg-" + random();
        try {
            settings.put("a1", new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                    new AgentSettings.Wiki(true, true)));
            assertEquals(401, admin("POST", "/admin/sessions", "{}", guess).statusCode());
            HttpResponse<String> created = admin("POST", "/admin/sessions", "{\"environmentId\":\"local\","
                    + "\"threadId\":\"t1\",\"providerSessionId\":\"ps-1\",\"providerInstanceId\":\"p-1\","
                    + "\"logicalAgentId\":\"a1\",\"t3ProjectId\":\"proj-1\",\"provider\":\"codex\"}", ADMIN);
            assertEquals(201, created.statusCode(), created.body());
            String token = JSON.readTree(created.body()).path("token").asText();

            assertEquals(200, call(token, "wiki_read", "{\"path\":\"page.md\"}").status());
            assertEquals(200, call(token, "wiki_write", "{\"path\":\"page.md\",\"content\":\"x\"}").status());
            assertEquals(200, call(token, "wiki_write", "{\"path\":\"page.md\",\"content\":\"x\",\"auth\":"
                    + "{\"apiToken\":\"" + argumentSecret + "\"}}").status());
            assertEquals(401, call(forged, "wiki_read", "{\"path\":\"page.md\"}").status());
            assertEquals(200, call(token, "no_such_tool", "{}").status());

            String logs = captured.toString(StandardCharsets.UTF_8);
            String decisionLog = Files.readString(decisions.file());
            assertFalse(decisionLog.isEmpty());
            for (String secret : List.of(ADMIN, guess, token, forged, SERVICE, argumentSecret)) {
                assertFalse(logs.contains(secret), "a log line holds a credential: " + secret + "\n" + logs);
                assertFalse(decisionLog.contains(secret), "the decision log holds a credential: " + secret);
            }
            List<String> lines = logs.lines().toList();
            assertFalse(lines.isEmpty(), "the calls logged something to check");
            // Spans are not exported here, so a line carries the trace the caller sent, passed through unchanged.
            assertTrue(lines.stream().anyMatch(l -> l.contains("\"trace_id\":\"" + CALLER_TRACE + "\"")),
                    "/mcp lines carry their caller's trace");
            for (String line : lines) {
                JsonNode event = JSON.readTree(line);
                assertTrue(event.has("@timestamp") && event.has("level") && event.has("logger_name")
                        && event.has("message"), line);
            }
        } finally {
            ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME)
                    .detachAppender(appender);
            appender.stop();
        }
    }

    private static final Pattern TEST_CONSOLE_LINE =
            Pattern.compile("\\d{2}:\\d{2}:\\d{2}\\.\\d{3} (TRACE|DEBUG|INFO |WARN |ERROR) ");

    /**
     * Neither production configuration logs what the MCP SDK says at INFO: it logs every initialize with the client's
     * capabilities whole, so any caller could fill the log (a new user's trial: 13 MB in 1.6 s). Its warnings show,
     * and the gateway's own INFO lines too.
     */
    @Test
    void theSdksInfoLinesAreNotLoggedInEitherProductionConfiguration() throws Exception {
        for (String file : List.of("logback.xml", "logback-text.xml")) {
            LoggerContext context = new LoggerContext();
            try {
                JoranConfigurator configurator = new JoranConfigurator();
                configurator.setContext(context);
                configurator.doConfigure(Path.of("src/main/resources", file).toFile());
                Logger sdk = context.getLogger("io.modelcontextprotocol.server.McpAsyncServer");
                assertFalse(sdk.isInfoEnabled(), file);
                assertTrue(sdk.isWarnEnabled(), file);
                assertTrue(context.getLogger("dev.gatehouse.gateway.Probe").isInfoEnabled(), file);
            } finally {
                context.stop();
            }
        }
    }

    /** The production configuration (src/main/resources/logback.xml) writes JSON lines by default. */
    @Test
    void theProductionFormatIsOneJsonObjectPerLine() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(org.slf4j.MDC.getMDCAdapter());
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(Path.of("src/main/resources/logback.xml").toFile());
            org.slf4j.MDC.put("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736");
            context.getLogger("dev.gatehouse.gateway.Probe").warn("probe {}", 42,
                    new IllegalStateException("boom"));
            org.slf4j.MDC.remove("trace_id");
        } finally {
            context.stop();
            System.setOut(original);
        }
        // System.out is the process's: a line another test's server thread logs meanwhile, in the tests' own
        // console pattern (src/test/resources/logback-test.xml), is not the production format's and is left out.
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> !TEST_CONSOLE_LINE.matcher(line).lookingAt()).toList();
        assertEquals(1, lines.size(), out.toString(StandardCharsets.UTF_8));
        JsonNode event = JSON.readTree(lines.get(0));
        assertEquals("probe 42", event.path("message").asText());
        assertEquals("WARN", event.path("level").asText());
        assertEquals("dev.gatehouse.gateway.Probe", event.path("logger_name").asText());
        assertTrue(event.path("stack_trace").asText().contains("IllegalStateException: boom"));
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", event.path("trace_id").asText());
        assertTrue(event.has("@timestamp"));
    }
}
