package dev.gatehouse.gateway.policy.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.EvaluatingPdp;
import dev.gatehouse.gateway.policy.PolicyJson;
import dev.gatehouse.gateway.policy.ResultSet;
import dev.gatehouse.gateway.policy.SelfTest;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.client.DefaultHttpClientConfiguration;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientException;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.http.client.exceptions.ReadTimeoutException;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The remote PDP (docs/design.md, "Two PDP engines"): an OPA server asked through its REST Data API,
 * {@code POST {url}/v1/data/<entrypoint>?provenance=true} with body {@code {"input": …}}, using the Micronaut HTTP
 * client. Selected by {@code gatehouse.policy.engine=remote}.
 *
 * <p>Each call has one deadline ({@link RemotePdpConfiguration#getDeadline()}). Outcomes: no answer in time, or no
 * connection → {@link PolicyFault#TIMEOUT}; any status but 200 (OPA answers 500 for evaluation errors) →
 * {@link PolicyFault#EVALUATION_ERROR}; a body that is not a JSON object → {@link PolicyFault#MALFORMED_RESULT};
 * a body without {@code result} (OPA's "undefined") → {@link PolicyFault#UNDEFINED}. A defined result goes to the
 * shared parser like the embedded engine's. The bundle revision is taken from {@code provenance.bundles}
 * ({@code "unknown"} when OPA reports none).
 *
 * <p>At start-up the {@link SelfTest} runs once; its outcome, and after that the outcome of the latest call, is
 * what {@link #status()} reports. The bean starts even when OPA is not reachable yet; calls then fail closed.
 */
@Singleton
@Requires(property = "gatehouse.policy.engine", value = RemotePdp.ENGINE)
public final class RemotePdp extends EvaluatingPdp {

    /** The value of {@code gatehouse.policy.engine} that selects this engine. */
    public static final String ENGINE = "remote";

    /** Revision reported when OPA's provenance names no bundle revision. */
    static final String UNKNOWN_REVISION = "unknown";

    private static final Logger LOG = LoggerFactory.getLogger(RemotePdp.class);

    private final HttpClient client;
    private final URI base;
    private final Duration deadline;
    private volatile PdpStatus status;

    /** Creates the client and runs the self-test once; never throws for an unreachable or broken OPA. */
    public RemotePdp(RemotePdpConfiguration configuration) {
        this.base = URI.create(configuration.getUrl());
        this.deadline = configuration.getDeadline();
        DefaultHttpClientConfiguration http = new DefaultHttpClientConfiguration();
        http.setConnectTimeout(deadline);
        http.setReadTimeout(deadline);
        http.setFollowRedirects(false);
        this.client = HttpClient.create(url(base), http);
        this.status = new PdpStatus(ENGINE, Optional.empty(), Optional.empty());
        PolicyOutcome<String> selfTest = SelfTest.run(this);
        observe(selfTest);
        if (selfTest instanceof PolicyOutcome.Failed<String> failed) {
            LOG.error("Remote PDP at {} failed its self-test; calls are denied until it answers correctly: {}",
                    base, failed.fault().detail());
        }
    }

    @Override
    public PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input) {
        return call(entrypoint, input);
    }

    @Override
    protected void observe(PolicyOutcome<String> outcome) {
        status = outcome instanceof PolicyOutcome.Decided<String> revision
                ? new PdpStatus(ENGINE, Optional.of(revision.value()), Optional.empty())
                : new PdpStatus(ENGINE, status.bundleRevision(),
                        Optional.of(((PolicyOutcome.Failed<String>) outcome).fault()));
    }

    @Override
    public PdpStatus status() {
        return status;
    }

    /** Closes the HTTP client and its connections. */
    @PreDestroy
    public void close() {
        client.close();
    }

    private PolicyOutcome<ResultSet> call(Entrypoint entrypoint, ObjectNode input) {
        ObjectNode body = PolicyJson.MAPPER.createObjectNode();
        body.set("input", input);
        HttpResponse<byte[]> response;
        try {
            HttpRequest<byte[]> request = HttpRequest
                    .POST(base.resolve(base.getPath() + "/v1/data/" + entrypoint.path() + "?provenance=true"),
                            PolicyJson.write(body).getBytes(StandardCharsets.UTF_8))
                    .contentType(MediaType.APPLICATION_JSON_TYPE)
                    .accept(MediaType.APPLICATION_JSON_TYPE);
            response = Mono.from(client.exchange(request, byte[].class)).timeout(deadline).block();
        } catch (HttpClientResponseException e) {
            return failed(PolicyFault.EVALUATION_ERROR, "OPA answered HTTP " + e.getStatus().getCode());
        } catch (ReadTimeoutException e) {
            return failed(PolicyFault.TIMEOUT, "no answer within " + deadline.toMillis() + " ms");
        } catch (HttpClientException e) {
            return failed(PolicyFault.TIMEOUT, "OPA at " + base + " could not be reached: " + e.getMessage());
        } catch (StackOverflowError e) { // an input nested too deep to write
            return failed(PolicyFault.EVALUATION_ERROR, "the decision input cannot be serialised");
        } catch (RuntimeException e) {
            return e.getCause() instanceof TimeoutException
                    ? failed(PolicyFault.TIMEOUT, "no answer within " + deadline.toMillis() + " ms")
                    : failed(PolicyFault.EVALUATION_ERROR, e.getClass().getName() + ": " + e.getMessage());
        }
        if (response == null || response.code() != HttpStatus.OK.getCode()) {
            return failed(PolicyFault.EVALUATION_ERROR, "OPA answered HTTP "
                    + (response == null ? "nothing" : String.valueOf(response.code())));
        }
        return answer(response.body());
    }

    /** OPA's {@code {"result": v, "provenance": …}} → result set {@code [{"result": v}]}; no result → {@code []}. */
    private static PolicyOutcome<ResultSet> answer(byte[] body) {
        JsonNode json;
        try {
            json = body == null ? null : PolicyJson.MAPPER.readTree(body);
        } catch (IOException e) {
            return failed(PolicyFault.MALFORMED_RESULT, "OPA's answer is not JSON");
        }
        if (json == null || !json.isObject()) {
            return failed(PolicyFault.MALFORMED_RESULT, "OPA's answer is not a JSON object");
        }
        ArrayNode results = PolicyJson.MAPPER.createArrayNode();
        if (json.has("result")) {
            results.addObject().set("result", json.get("result"));
        }
        return new PolicyOutcome.Decided<>(new ResultSet(results, revision(json.path("provenance"))));
    }

    /** The revision of the one bundle OPA reports, or {@code name=revision} pairs in name order for several. */
    private static String revision(JsonNode provenance) {
        Map<String, String> revisions = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = provenance.path("bundles").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> bundle = it.next();
            JsonNode revision = bundle.getValue().path("revision");
            if (revision.isTextual() && !revision.textValue().isEmpty()) {
                revisions.put(bundle.getKey(), revision.textValue());
            }
        }
        if (revisions.isEmpty()) {
            return UNKNOWN_REVISION;
        }
        if (revisions.size() == 1) {
            return revisions.values().iterator().next();
        }
        StringBuilder joined = new StringBuilder();
        revisions.forEach((name, revision) -> joined.append(joined.length() == 0 ? "" : ",")
                .append(name).append('=').append(revision));
        return joined.toString();
    }

    private static URL url(URI uri) {
        try {
            return uri.toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("gatehouse.policy.remote.url is not a URL: " + uri, e);
        }
    }

    private static PolicyOutcome<ResultSet> failed(String code, String detail) {
        return new PolicyOutcome.Failed<>(new PolicyFault(code, detail));
    }
}
