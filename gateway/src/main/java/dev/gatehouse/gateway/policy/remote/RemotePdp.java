package dev.gatehouse.gateway.policy.remote;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.DecisionParser;
import dev.gatehouse.gateway.policy.EnforcementDocument;
import dev.gatehouse.gateway.policy.EvaluatingPolicy;
import dev.gatehouse.gateway.policy.PolicyDocument;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.ResultSet;
import dev.gatehouse.gateway.policy.SelfTest;
import dev.gatehouse.gateway.policy.api.EnforcementCheck;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
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
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * <p><b>Revisions.</b> OPA activates bundles by itself, unseen. The gateway reads the contents of the revision OPA
 * serves (the {@code enforcement} entry point), checks that it can enforce them ({@link EnforcementCheck}) and runs
 * the {@link SelfTest} on it before it uses that revision; every later answer names the revision that gave it, and an
 * answer from another revision than the one the call's contents came from is a fault
 * ({@link PolicyFault#REVISION_CHANGED}, so the call is denied {@code policy_unavailable}, retryable) after which the
 * next call reads the new revision's contents. A revision OPA serves that this gateway cannot enforce leaves no
 * revision serving here (every call fails closed) until OPA serves one it can: OPA, not the gateway, chose to
 * activate it.
 *
 * <p>{@link #status()} reports the outcome of the latest call. The bean starts even when OPA is not reachable yet;
 * calls then fail closed.
 */
@Singleton
@Requires(property = "gatehouse.policy.engine", value = RemotePdp.ENGINE)
public final class RemotePdp implements PolicyDecisionPoint, RevisionHistory {

    /** The value of {@code gatehouse.policy.engine} that selects this engine. */
    public static final String ENGINE = "remote";

    /** Revision reported when OPA's provenance names no bundle revision. */
    static final String UNKNOWN_REVISION = "unknown";

    private static final Logger LOG = LoggerFactory.getLogger(RemotePdp.class);

    private final HttpClient client;
    private final URI base;
    private final Duration deadline;
    private final EnforcementCheck enforcement;
    private final Clock clock;
    private volatile PdpStatus status;
    private volatile RemoteRevision current;

    /** An engine whose revisions' contents are accepted as they are (engine tests). */
    public RemotePdp(RemotePdpConfiguration configuration) {
        this(configuration, contents -> List.of(), Clock.systemUTC());
    }

    /**
     * Creates the client and reads OPA's revision once; never throws for an unreachable or broken OPA.
     *
     * @param enforcement whether this gateway can enforce a revision's contents
     */
    @Inject
    public RemotePdp(RemotePdpConfiguration configuration, EnforcementCheck enforcement, Clock clock) {
        this.base = URI.create(configuration.getUrl());
        this.deadline = configuration.getDeadline();
        this.enforcement = enforcement;
        this.clock = clock;
        DefaultHttpClientConfiguration http = new DefaultHttpClientConfiguration();
        http.setConnectTimeout(deadline);
        http.setReadTimeout(deadline);
        http.setFollowRedirects(false);
        this.client = HttpClient.create(url(base), http);
        this.status = new PdpStatus(ENGINE, Optional.empty(), Optional.empty());
        if (refresh() == null) {
            LOG.error("Remote PDP at {} has no revision this gateway can use yet; calls are denied until it has: {}",
                    base, status.fault().map(PolicyFault::detail).orElse("?"));
        }
    }

    @Override
    public Optional<ServedPolicy> serving() {
        RemoteRevision revision = current;
        return Optional.ofNullable(revision != null ? revision : refresh());
    }

    @Override
    public PdpStatus status() {
        return status;
    }

    /**
     * Only the revision OPA serves now, while this gateway can use it: OPA activates bundles itself and evaluates
     * only its current one, so no earlier revision can be asked.
     */
    @Override
    public List<KeptRevision> kept() {
        RemoteRevision revision = current;
        return revision == null ? List.of() : List.of(revision);
    }

    /** None: OPA refuses bundles itself and reports it in its own status, which this gateway does not read. */
    @Override
    public List<Refusal> refusals() {
        return List.of();
    }

    @Override
    public int capacity() {
        return 1;
    }

    /** Closes the HTTP client and its connections. */
    @PreDestroy
    public void close() {
        client.close();
    }

    /**
     * Reads the revision OPA serves now: its contents, whether this gateway can enforce them, and its self-test.
     *
     * @return the revision, also kept as the current one; null when there is none this gateway can use (the status
     *         says why)
     */
    private synchronized RemoteRevision refresh() {
        RemoteRevision known = current;
        if (known != null) {
            return known; // another call read it first
        }
        PolicyOutcome<ResultSet> answer = call(Entrypoint.ENFORCEMENT, PolicyJson.MAPPER.createObjectNode());
        if (answer instanceof PolicyOutcome.Failed<ResultSet> failed) {
            return unusable(failed.fault());
        }
        ResultSet result = ((PolicyOutcome.Decided<ResultSet>) answer).value();
        PolicyOutcome<PolicyDocument> document = DecisionParser.document(result);
        if (document instanceof PolicyOutcome.Failed<PolicyDocument> failed) {
            return unusable(failed.fault());
        }
        EnforcementDocument.Read read = EnforcementDocument.read(
                ((PolicyOutcome.Decided<PolicyDocument>) document).value().value());
        List<String> problems = read instanceof EnforcementDocument.Problems found ? found.problems()
                : enforcement.problems(((EnforcementDocument.Contents) read).contents());
        if (!problems.isEmpty()) {
            return unusable(new PolicyFault(PolicyFault.BUNDLE_UNAVAILABLE, "revision " + result.revision()
                    + " cannot be enforced by this gateway: " + String.join("; ", problems)));
        }
        RemoteRevision revision = new RemoteRevision(result.revision(),
                ((EnforcementDocument.Contents) read).contents(), clock.instant());
        PolicyOutcome<String> selfTest = SelfTest.run(revision);
        if (selfTest instanceof PolicyOutcome.Failed<String> failed) {
            return unusable(failed.fault());
        }
        current = revision;
        status = new PdpStatus(ENGINE, Optional.of(revision.revision()), Optional.empty());
        LOG.info("Remote PDP at {} serves revision {}", base, revision.revision());
        return revision;
    }

    private RemoteRevision unusable(PolicyFault fault) {
        status = new PdpStatus(ENGINE, status.bundleRevision(), Optional.of(fault));
        return null;
    }

    /** The revision OPA served when its contents were read; evaluations on it must come from it. */
    private final class RemoteRevision extends EvaluatingPolicy implements KeptRevision {

        RemoteRevision(String revision, PolicyContents contents, Instant activatedAt) {
            super(revision, Optional.empty(), activatedAt, contents);
        }

        @Override
        public Optional<Instant> signedAt() {
            return Optional.empty();
        }

        @Override
        public String source() {
            return "remote OPA " + base;
        }

        /** None: OPA holds the bundle, the gateway never sees it. */
        @Override
        public Optional<byte[]> regoBundle() {
            return Optional.empty();
        }

        @Override
        public PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input) {
            PolicyOutcome<ResultSet> answer = call(entrypoint, input);
            if (answer instanceof PolicyOutcome.Decided<ResultSet> decided
                    && !decided.value().revision().equals(revision())) {
                current = null; // the next call reads the revision OPA serves now
                return failed(PolicyFault.REVISION_CHANGED, "OPA answered from revision "
                        + decided.value().revision() + ", not " + revision() + " whose contents this call used");
            }
            return answer;
        }

        @Override
        protected void observe(PolicyOutcome<String> outcome) {
            status = outcome instanceof PolicyOutcome.Decided<String> revision
                    ? new PdpStatus(ENGINE, Optional.of(revision.value()), Optional.empty())
                    : new PdpStatus(ENGINE, status.bundleRevision(),
                            Optional.of(((PolicyOutcome.Failed<String>) outcome).fault()));
        }
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
