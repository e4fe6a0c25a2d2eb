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
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/**
 * The admin API of the service clients, behind {@link AdminCredentialFilter} ({@link ServiceClientAdmin} does the
 * work, audited as the admin API credential):
 * <ul>
 * <li>{@code GET /admin/service-clients} → 200 {@code [ServiceClientView]}: URL, credential source and state, last
 * exchange, last authentication failure, when changed; never a credential;</li>
 * <li>{@code PUT /admin/service-clients/{service}/credential} {@code {credential}} → 200 the client's view: the
 * credential is sealed, stored for every replica and used from the next call on; 400 {@code {error:
 * "missing_fields"|"invalid_fields", …}} for a blank or malformed credential or when no key file is configured; 404
 * for a service other than {@code project}, {@code wiki}, {@code host};</li>
 * <li>{@code DELETE /admin/service-clients/{service}/credential} → 200 the view (the configured credential is used
 * again), 404 when none was stored.</li>
 * </ul>
 * None takes a query parameter, and the writes no {@code If-Match} or {@code If-None-Match} (a stored credential
 * has no version): either is 400 {@code invalid_fields} naming it.
 */
@Controller("/admin/service-clients")
public class ServiceClientAdminController {

    /** The body of a replacement; the value is never echoed, logged or stored unsealed. */
    @Serdeable
    public record CredentialRequest(@Nullable String credential) {
    }

    private final ServiceClientAdmin clients;

    public ServiceClientAdminController(ServiceClientAdmin clients) {
        this.clients = clients;
    }

    @Get
    public HttpResponse<?> list(HttpRequest<?> request) {
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), new AdminResult.Done<Void>(null)),
                none -> HttpResponse.ok(clients.clients()));
    }

    @Put("/{service}/credential")
    public HttpResponse<?> replace(HttpRequest<?> http, String service, @Nullable @Body byte[] body) {
        return AdminResponses.answer(QueryParameters.strict(http, List.of(), ConditionalHeaders.none(http,
                ConditionalHeaders.UNVERSIONED, AdminBodies.read(body, CredentialRequest.class))),
                request -> AdminResponses.answer(clients.replace(service, request.credential(), Actor.ADMIN_API),
                        HttpResponse::ok));
    }

    @Delete("/{service}/credential")
    public HttpResponse<?> remove(HttpRequest<?> request, String service) {
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), ConditionalHeaders.none(request,
                ConditionalHeaders.UNVERSIONED, new AdminResult.Done<>(service))),
                named -> AdminResponses.answer(clients.remove(named, Actor.ADMIN_API), HttpResponse::ok));
    }
}
