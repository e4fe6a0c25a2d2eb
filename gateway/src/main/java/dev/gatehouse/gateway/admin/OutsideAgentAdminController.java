package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import java.util.List;
import java.util.Optional;

/**
 * The admin API of outside-agent registrations, behind {@link AdminCredentialFilter} ({@link OutsideAgentAdmin}
 * does the work, audited as the admin API credential):
 * <ul>
 * <li>{@code PUT /admin/outside-agents} ({@link OutsideAgentRequest}) → 200 {@link OutsideAgentView} with
 * {@code ETag: "<version>"}: registers an outside agent by token issuer and subject, with its logical agent id and
 * settings; 400 {@code {error: "invalid_fields", invalid[]}} for an issuer that is not an OAuth issuer, an agent id
 * outside the outside-agent namespace or another registration's, or a shared thread agent inside it or not one that
 * may be shared (docs/domain.md §1); 409 {@code {error: "version_conflict", currentVersion}} when {@code If-Match} or
 * the body's {@code version} is stale, or when the pair is registered and {@code If-None-Match: *} asked to create
 * the registration only; 412 {@code {error: "precondition_failed", message}} when {@code If-Match} is a weak tag or
 * {@code *} and the pair is not registered: as for {@code PUT /admin/agents/{id}};</li>
 * <li>{@code GET /admin/outside-agents} → 200 {@code [OutsideAgentView]}, each with its version;</li>
 * <li>{@code DELETE /admin/outside-agents?issuer=&subject=} → 204, the registration and its agent's settings removed
 * together; or 404 when not registered.</li>
 * </ul>
 */
@Controller("/admin/outside-agents")
public class OutsideAgentAdminController {

    private final OutsideAgentAdmin outsideAgents;

    public OutsideAgentAdminController(OutsideAgentAdmin outsideAgents) {
        this.outsideAgents = outsideAgents;
    }

    @Put
    public HttpResponse<?> putOutsideAgent(@Nullable @Body byte[] body, @Nullable @Header("If-Match") String ifMatch,
            @Nullable @Header("If-None-Match") String ifNoneMatch) {
        return AdminResponses.answer(AdminBodies.read(body, OutsideAgentRequest.class), request -> AdminResponses
                .answer(outsideAgents.register(request, Optional.ofNullable(ifMatch), Optional.ofNullable(ifNoneMatch),
                        Actor.ADMIN_API),
                        view -> HttpResponse.ok(view).header("ETag", AdminResponses.etag(view.version()))));
    }

    @Get
    public List<OutsideAgentView> listOutsideAgents() {
        return outsideAgents.registrations();
    }

    @Delete
    public HttpResponse<?> deleteOutsideAgent(@Nullable @QueryValue String issuer, @Nullable @QueryValue String subject) {
        return AdminResponses.answer(outsideAgents.unregister(issuer, subject, Actor.ADMIN_API),
                none -> HttpResponse.noContent());
    }
}
