package dev.gatehouse.facade.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one place a {@link Reply} becomes a {@link FacadeResult}: every service failure maps to exactly one kind of
 * docs/domain.md §8, the same way for all three services.
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>reply</th><th>read</th><th>mutation</th></tr>
 *   <tr><td>2xx, {@code application/json}, {@code Api-Version: 1}, decodable</td><td colspan="2">Ok</td></tr>
 *   <tr><td>2xx otherwise; 1xx/3xx; 404 without an error body</td><td colspan="2">incompatible</td></tr>
 *   <tr><td>401, 403</td><td colspan="2">authentication</td></tr>
 *   <tr><td>404 with an error body</td><td colspan="2">not_found: {@code X} for code {@code X_not_found}
 *       (X one of run, operation, project, page, thread), else the call's default</td></tr>
 *   <tr><td>409</td><td colspan="2">conflict</td></tr>
 *   <tr><td>other 4xx</td><td colspan="2">rejected, with the service's {@code code}</td></tr>
 *   <tr><td>5xx</td><td>unavailable</td><td>uncertain</td></tr>
 *   <tr><td>connection refused / connect timeout (nothing sent)</td><td colspan="2">unavailable</td></tr>
 *   <tr><td>deadline passed, transport broken after connecting</td><td>unavailable</td><td>uncertain</td></tr>
 * </table>
 * An uncertain mutation carries the operation id the service named in an {@code Operation-Id} header, or else the
 * mutation's {@link IdempotencyKey}: known before anything was sent, so reporting it costs no further exchange and
 * the whole call stays within one deadline. Messages name the service and the kind, never a credential or a raw
 * body.
 */
public final class ReplyMapper {

    /** The contract generation these facades speak (response header {@code Api-Version}). */
    public static final String API_VERSION = "1";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final Pattern SERVICE_CODE = Pattern.compile("[a-z0-9_.-]{1,64}");
    private static final Set<String> NOT_FOUND_KINDS = Set.of("run", "operation", "project", "page", "thread");
    /**
     * What each 409 code of the service contract (schemas/services/README.md) means, in the tool arguments' terms,
     * so the caller knows what to send again; an unknown code is reported as it came.
     */
    private static final Map<String, String> CONFLICTS = Map.of(
            "revision_conflict", "the page is not at the baseRevision given (for a write without one: the page"
                    + " exists); read the page and send its current revision as baseRevision",
            "page_exists", "a page exists at the destination, and it is never overwritten",
            "stale_revision", "the runRevision or assignmentRevision given is not the current one; read the run and"
                    + " send its current revisions");

    private final String service;
    private final long deadlineMillis;

    /**
     * @param service        service name used in messages, e.g. {@code wiki}
     * @param deadlineMillis the call deadline in ms, used in messages
     */
    public ReplyMapper(String service, long deadlineMillis) {
        this.service = service;
        this.deadlineMillis = deadlineMillis;
    }

    /** Interprets the reply to a read; {@code notFound} is what a 404 names unless its code says otherwise. */
    public <T> FacadeResult<T> read(Reply reply, String notFound, Projection<T> projection) {
        if (reply instanceof Reply.Answered answered) {
            return answered(answered, notFound, projection, false, Optional.empty());
        }
        if (reply instanceof Reply.Refused) {
            return unreachable("");
        }
        if (reply instanceof Reply.TimedOut) {
            return failed(new ServiceError.Unavailable(
                    "the " + service + " service did not answer within " + deadlineMillis + " ms"));
        }
        return failed(new ServiceError.Unavailable("the connection to the " + service + " service failed"));
    }

    /**
     * Interprets the reply to a mutation.
     *
     * @param key the {@code Idempotency-Key} the mutation was sent with, reported as the operation id of an uncertain
     *            outcome when the service named none; empty for a mutation sent without one (notice delivery, whose
     *            requests carry their own deterministic ids)
     */
    public <T> FacadeResult<T> mutation(Reply reply, String notFound, Projection<T> projection,
            Optional<IdempotencyKey> key) {
        Optional<String> keyed = key.map(IdempotencyKey::value);
        if (reply instanceof Reply.Answered answered) {
            return answered(answered, notFound, projection, true, keyed);
        }
        if (reply instanceof Reply.Refused) {
            // The one failed mutation whose outcome is known: without this, "unavailable" would read like "uncertain".
            return unreachable("; nothing was sent, so the change was not applied");
        }
        if (reply instanceof Reply.TimedOut) {
            return uncertain("the " + service + " service did not answer within " + deadlineMillis
                    + " ms; the change may or may not have been applied", keyed);
        }
        return uncertain("the connection to the " + service + " service failed after the request was sent;"
                + " the change may or may not have been applied", keyed);
    }

    private <T> FacadeResult<T> answered(Reply.Answered reply, String notFound, Projection<T> projection,
            boolean mutation, Optional<String> key) {
        int status = reply.status();
        if (status >= 200 && status < 300) {
            return decode(reply, projection);
        }
        if (status == 401 || status == 403) {
            return failed(new ServiceError.Authentication("the " + service + " service refused the gateway's"
                    + " credential (HTTP " + status + ")"));
        }
        if (status == 409) {
            Optional<String> code = errorCode(reply);
            return failed(new ServiceError.Conflict("the " + service + " service reports a conflict"
                    + code.map(c -> " (" + c + ")").orElse("")
                    + code.map(CONFLICTS::get).map(meaning -> ": " + meaning).orElse("; re-read and retry")));
        }
        if (status == 404) {
            return errorCode(reply).<FacadeResult<T>>map(code -> {
                String what = missingThing(code).orElse(notFound);
                return failed(new ServiceError.NotFound("the " + service + " service has no such " + what, what));
            }).orElseGet(() -> incompatible("answered 404 without an error body"));
        }
        if (status >= 500 && status < 600) {
            return mutation
                    ? uncertain("the " + service + " service failed (HTTP " + status
                            + "); the change may or may not have been applied",
                            reply.operationId().or(() -> key))
                    : failed(new ServiceError.Unavailable("the " + service + " service failed (HTTP "
                            + status + ")"));
        }
        if (status >= 400 && status < 500) {
            String code = errorCode(reply).orElse("http_" + status);
            return failed(new ServiceError.Rejected("the " + service + " service rejected the request ("
                    + code + ")", code));
        }
        return incompatible("answered HTTP " + status);
    }

    private <T> FacadeResult<T> decode(Reply.Answered reply, Projection<T> projection) {
        if (!reply.contentType().map(ReplyMapper::isJson).orElse(false)) {
            return incompatible("answered with an unexpected content type");
        }
        if (!reply.apiVersion().map(v -> v.strip().equals(API_VERSION)).orElse(false)) {
            return incompatible("speaks another API version than " + API_VERSION);
        }
        try {
            return new FacadeResult.Ok<>(projection.project(parse(reply.body())));
        } catch (Undecodable e) {
            return incompatible("sent an answer the gateway cannot decode: " + e.getMessage());
        }
    }

    /** Parses a JSON object body. */
    static JsonNode parse(byte[] body) throws Undecodable {
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.isObject()) {
                throw new Undecodable("expected a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new Undecodable("malformed JSON");
        } catch (IOException e) {
            throw new Undecodable("unreadable body");
        }
    }

    /** The {@code code} of an error body {@code {"code": "...", "message": "..."}}, when it has that shape. */
    private static Optional<String> errorCode(Reply.Answered reply) {
        if (!reply.contentType().map(ReplyMapper::isJson).orElse(false)) {
            return Optional.empty();
        }
        try {
            JsonNode code = parse(reply.body()).get("code");
            return code != null && code.isTextual() && SERVICE_CODE.matcher(code.textValue()).matches()
                    ? Optional.of(code.textValue()) : Optional.empty();
        } catch (Undecodable e) {
            return Optional.empty();
        }
    }

    /** {@code project_not_found} → {@code project}, for the kinds docs/domain.md §8 names; otherwise empty. */
    private static Optional<String> missingThing(String code) {
        String what = code.endsWith("_not_found") ? code.substring(0, code.length() - "_not_found".length()) : "";
        return NOT_FOUND_KINDS.contains(what) ? Optional.of(what) : Optional.empty();
    }

    private static boolean isJson(String contentType) {
        String type = contentType.split(";", 2)[0].strip();
        return type.equalsIgnoreCase("application/json");
    }

    /** The service refused the connection, so nothing was sent; {@code outcome} says what that means, if anything. */
    private <T> FacadeResult<T> unreachable(String outcome) {
        return failed(new ServiceError.Unavailable("the " + service + " service is unreachable" + outcome));
    }

    private <T> FacadeResult<T> incompatible(String what) {
        return failed(new ServiceError.Incompatible("the " + service + " service " + what));
    }

    private static <T> FacadeResult<T> uncertain(String message, Optional<String> operationId) {
        return failed(new ServiceError.Uncertain(message, operationId));
    }

    private static <T> FacadeResult<T> failed(ServiceError error) {
        return new FacadeResult.Failed<>(error);
    }
}
