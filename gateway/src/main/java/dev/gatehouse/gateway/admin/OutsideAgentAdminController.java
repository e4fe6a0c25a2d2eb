package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import java.util.List;

/**
 * The admin API of outside-agent registrations, behind {@link AdminCredentialFilter} ({@link OutsideAgentAdmin}
 * does the work, audited as the admin API credential):
 * <ul>
 * <li>{@code PUT /admin/outside-agents} ({@link OutsideAgentRequest}) → 200 {@link OutsideAgentView} with
 * {@code ETag: "<version>"}: registers an outside agent by token issuer and subject, with its logical agent id and
 * settings; 400 {@code {error: "invalid_fields", invalid[]}} for an issuer that is not an OAuth issuer, an agent id
 * outside the outside-agent namespace or another registration's, or a shared thread agent inside it or not one that
 * may be shared (docs/domain.md §1); 409 {@code {error: "version_conflict", currentVersion}} when {@code If-Match} or
 * the body's {@code version} is stale; 412 {@code {error: "precondition_failed", message}} when {@code If-Match} is a
 * weak tag or {@code *} and the pair is not registered, or when the pair is registered and {@code If-None-Match: *}
 * asked to create the registration only; 400 naming {@code If-Match} or {@code If-None-Match} when one is given
 * twice, or a query parameter: as for {@code PUT /admin/agents/{id}};</li>
 * <li>{@code GET /admin/outside-agents} → 200 {@code [OutsideAgentView]}, each with its version; it takes no query
 * parameter (400 naming one);</li>
 * <li>{@code DELETE /admin/outside-agents?issuer=&subject=} → 204, the registration and its agent's settings removed
 * together; or 404 when not registered; 400 for another parameter, one given twice, or an {@code If-Match} or
 * {@code If-None-Match} (a removal takes no precondition).</li>
 * </ul>
 */
@Controller("/admin/outside-agents")
public class OutsideAgentAdminController {

    private final OutsideAgentAdmin outsideAgents;

    public OutsideAgentAdminController(OutsideAgentAdmin outsideAgents) {
        this.outsideAgents = outsideAgents;
    }

    @Put
    public HttpResponse<?> putOutsideAgent(HttpRequest<?> http, @Nullable @Body byte[] body) {
        return AdminResponses.answer(QueryParameters.strict(http, List.of(), ConditionalHeaders.of(http)),
                conditions -> AdminResponses.answer(AdminBodies.read(body, OutsideAgentRequest.class),
                        request -> AdminResponses.answer(outsideAgents.register(request, conditions.ifMatch(),
                                conditions.ifNoneMatch(), Actor.ADMIN_API),
                                view -> HttpResponse.ok(view).header("ETag", AdminResponses.etag(view.version())))));
    }

    @Get
    public HttpResponse<?> listOutsideAgents(HttpRequest<?> request) {
        // Takes no parameter: ?issuer= would look like a filter and list everything.
        return AdminResponses.answer(QueryParameters.strict(request, List.of(),
                new AdminResult.Done<>(outsideAgents.registrations())), HttpResponse::ok);
    }

    @Delete
    public HttpResponse<?> deleteOutsideAgent(HttpRequest<?> request, @Nullable @QueryValue String issuer,
            @Nullable @QueryValue String subject) {
        // A removal takes no precondition: refused rather than ignored, so a client that sent one is not surprised.
        AdminResult<Void> checked = QueryParameters.strict(request, DELETE_PARAMETERS, ConditionalHeaders.none(request,
                "A removal takes no precondition; it removes the registration whatever its version.",
                new AdminResult.Done<Void>(null)));
        return AdminResponses.answer(checked, ok -> AdminResponses.answer(outsideAgents.unregister(issuer, subject,
                Actor.ADMIN_API), none -> HttpResponse.noContent()));
    }

    /** The query parameters {@code DELETE} takes: the registration's pair. */
    private static final List<String> DELETE_PARAMETERS = List.of("issuer", "subject");
}
