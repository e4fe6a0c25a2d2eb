package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import io.micronaut.core.annotation.Nullable;
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
 * <li>{@code PUT /admin/outside-agents} ({@link OutsideAgentRequest}) → 200 {@link OutsideAgentView}: registers an
 * outside agent by token issuer and subject, with its logical agent id and settings; 400 {@code {error:
 * "invalid_fields", invalid[]}} for an issuer that is not an OAuth issuer, an agent id outside the outside-agent
 * namespace or another registration's, or a shared thread agent inside it or not one that may be shared
 * (docs/domain.md §1);</li>
 * <li>{@code GET /admin/outside-agents} → 200 {@code [OutsideAgentView]};</li>
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
    public HttpResponse<?> putOutsideAgent(@Nullable @Body byte[] body) {
        return AdminResponses.answer(AdminBodies.read(body, OutsideAgentRequest.class),
                request -> AdminResponses.answer(outsideAgents.register(request, Actor.ADMIN_API), HttpResponse::ok));
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
