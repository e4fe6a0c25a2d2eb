package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.AgentAdmin;
import dev.gatehouse.gateway.admin.AgentListing;
import dev.gatehouse.gateway.admin.AgentSettingsRequest;
import dev.gatehouse.gateway.admin.DeliveryProfileAdmin;
import dev.gatehouse.gateway.admin.FieldProblem;
import dev.gatehouse.gateway.admin.HeldCapabilities;
import dev.gatehouse.gateway.admin.OutsideAgentAdmin;
import dev.gatehouse.gateway.admin.OutsideAgentRequest;
import dev.gatehouse.gateway.admin.OutsideAgentView;
import dev.gatehouse.gateway.admin.SessionAdmin;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.security.authentication.Authentication;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code /console/agents}: thread agents and outside-agent registrations; one agent's settings, edited with the
 * version check (a stale edit is shown as a conflict with the submitted values kept), the capabilities the served
 * policy says it holds, its notice delivery profile; registering, sharing a thread agent's subtree, removing (after a
 * confirmation page). A form with a field it does not have, a checkbox with a value a ticked box does not send or a
 * version that is no number is 400 and saves nothing; so is a page parameter the page does not take. Every
 * change goes through the admin services ({@link AgentAdmin}, {@link OutsideAgentAdmin},
 * {@link DeliveryProfileAdmin}), as the admin API's do.
 */
@Controller("/console/agents")
@Produces(MediaType.TEXT_HTML)
public class AgentsController {

    /** The field that confirms a removal, and the one value it takes. */
    static final String CONFIRM = "confirm";
    static final String CONFIRMED = "yes";
    /** The delivery profile form's fields. */
    static final List<String> PROFILE_FIELDS = List.of("projectClientId", "runtimeMode", "interactionMode",
            "limitRuntimeMode", "limitInteractionMode");

    private final AgentAdmin agents;
    private final OutsideAgentAdmin outsideAgents;
    private final DeliveryProfileAdmin profiles;
    private final SessionAdmin sessions;
    private final AgentListing listing;
    private final AgentPage agentPage;
    private final HeldCapabilities held;

    public AgentsController(AgentAdmin agents, OutsideAgentAdmin outsideAgents, DeliveryProfileAdmin profiles,
            SessionAdmin sessions, AgentListing listing, AgentPage agentPage, HeldCapabilities held) {
        this.agents = agents;
        this.outsideAgents = outsideAgents;
        this.profiles = profiles;
        this.sessions = sessions;
        this.listing = listing;
        this.agentPage = agentPage;
        this.held = held;
    }

    @Get
    public HttpResponse<?> list(Authentication operator, HttpRequest<?> request) {
        PageParameters parameters = PageParameters.of(request, "removed");
        // A flag, not a name: the address is anyone's to write, so the notice repeats no text from it.
        boolean removed = parameters.flag("removed");
        if (!parameters.ok()) {
            return parameters.refused(ConsolePages.page("Agents", "agents", operator), "/console/agents");
        }
        return HttpResponse.ok(listPage(operator, Map.of(), Map.of(), removed
                ? Optional.of("The registration was removed, with its agent's settings.") : Optional.empty()));
    }

    /** Opens an agent by id (the "open or add" form): a bad id is answered next to the field. */
    @Get("/open")
    public HttpResponse<?> open(Authentication operator, HttpRequest<?> request,
            @Nullable @QueryValue String agentId) {
        PageParameters parameters = PageParameters.of(request, "agentId");
        if (!parameters.ok()) {
            return parameters.refused(ConsolePages.page("Agents", "agents", operator), "/console/agents");
        }
        String id = agentId == null ? "" : agentId.strip();
        AdminResult<?> check = agents.checkThreadAgentId(id);
        if (HeldCapabilities.kindOf(id) == CallerKind.THREAD && check instanceof AdminResult.Refused<?>) {
            return HttpResponse.status(HttpStatus.BAD_REQUEST).body(listPage(operator,
                    Map.of("agentId", id), ConsoleForms.problems(check), Optional.empty()));
        }
        return ConsolePages.seeOther(AgentPage.path(id) + "?new");
    }

    /**
     * {@code GET /console/agents/{agentId}/find?ceiling=...}: the ceiling form's target, on to the agent's page with
     * the ceiling chosen, none when the form's empty choice was sent (the page refuses an empty {@code ceiling}).
     */
    @Get("/{agentId}/find")
    public HttpResponse<?> find(HttpRequest<?> request, String agentId) {
        return ConsolePages.seeOther(ConsoleForms.filled(AgentPage.path(agentId), request, List.of("ceiling")));
    }

    /** One agent's page; {@code ?ceiling=} asks what an outside agent holds at one of the served ceilings. */
    @Get("/{agentId}")
    public HttpResponse<?> agent(Authentication operator, HttpRequest<?> request, String agentId) {
        PageParameters parameters = PageParameters.of(request, "new", "saved", "ceiling");
        boolean isNew = parameters.flag("new");
        boolean saved = parameters.flag("saved");
        Optional<String> ceiling = parameters.oneOf("ceiling", held.ceilings());
        if (!parameters.ok()) {
            return parameters.refused(ConsolePages.page("Agent", "agents", operator), AgentPage.path(agentId));
        }
        boolean known = agents.settings(agentId).isPresent() || outsideAgents.byAgent(agentId).isPresent()
                || sessions.current().stream().anyMatch(s -> s.logicalAgentId().equals(agentId));
        if (!known && (!isNew || HeldCapabilities.kindOf(agentId) == CallerKind.OUTSIDE_AGENT)) {
            return ConsolePages.notFound(operator, "No agent has this id: it has no settings, no session and no"
                    + " registration. Open it from the agents page to give it settings.");
        }
        return HttpResponse.ok(agentPage.render(operator, agentId, AgentPage.Edit.none(),
                saved ? Optional.of("Saved.") : Optional.empty(), ceiling));
    }

    @Post(value = "/{agentId}/settings", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> settings(Authentication operator, String agentId, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        List<FieldProblem> shape = AgentPage.settingsShape(form);
        AgentSettingsRequest request = AgentPage.settingsOf(form);
        AdminResult<AgentSettingsStore.Versioned> result = shape.isEmpty() ? agents.put(agentId, request,
                Optional.empty(), Optional.empty(), ConsolePages.actor(operator)) : new AdminResult.Refused<>(shape);
        if (result instanceof AdminResult.Done<?>) {
            return ConsolePages.seeOther(AgentPage.path(agentId) + "?saved");
        }
        HttpStatus status = result instanceof AdminResult.Conflict<?> ? HttpStatus.CONFLICT : HttpStatus.BAD_REQUEST;
        return HttpResponse.status(status).body(agentPage.render(operator, agentId,
                AgentPage.Edit.settings(request, result), Optional.empty(), Optional.empty()));
    }

    @Post(value = "/{agentId}/delivery-profile", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> deliveryProfile(Authentication operator, String agentId, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        DeliveryProfileAdmin.ProfileRequest request = new DeliveryProfileAdmin.ProfileRequest(
                ConsolePages.text(form, "projectClientId"), ConsolePages.text(form, "runtimeMode"),
                ConsolePages.text(form, "interactionMode"), ConsolePages.text(form, "limitRuntimeMode"),
                ConsolePages.text(form, "limitInteractionMode"));
        List<FieldProblem> shape = ConsoleForms.shape(form, PROFILE_FIELDS, List.of());
        AdminResult<?> result = shape.isEmpty() ? profiles.put(agentId, request, ConsolePages.actor(operator))
                : new AdminResult.Refused<>(shape);
        if (result instanceof AdminResult.Done<?>) {
            return ConsolePages.seeOther(AgentPage.path(agentId) + "?saved");
        }
        return HttpResponse.status(HttpStatus.BAD_REQUEST).body(agentPage.render(operator, agentId,
                AgentPage.Edit.profile(request, result), Optional.empty(), Optional.empty()));
    }

    /**
     * Registers an outside agent, or replaces a registration (settings and the shared thread agent with it), checked
     * against the version the form was made from: a stale edit is 409 with the submitted values kept.
     */
    @Post(value = "/registrations", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> register(Authentication operator, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        List<FieldProblem> shape = AgentPage.registrationShape(form);
        OutsideAgentRequest request = AgentPage.registrationOf(form);
        AdminResult<OutsideAgentView> result = shape.isEmpty() ? outsideAgents.register(request, Optional.empty(),
                Optional.empty(), ConsolePages.actor(operator)) : new AdminResult.Refused<>(shape);
        if (result instanceof AdminResult.Done<OutsideAgentView> done) {
            return ConsolePages.seeOther(AgentPage.path(done.value().logicalAgentId()) + "?saved");
        }
        HttpStatus status = result instanceof AdminResult.Conflict<?> ? HttpStatus.CONFLICT : HttpStatus.BAD_REQUEST;
        String from = form.getOrDefault("from", "");
        if (!from.isEmpty()) {
            return HttpResponse.status(status).body(agentPage.render(operator, from,
                    AgentPage.Edit.registration(request, result), Optional.empty(), Optional.empty()));
        }
        Map<String, String> values = new HashMap<>(form);
        values.remove(ConsolePages.CSRF_FIELD);
        Map<String, String> problems = result instanceof AdminResult.Conflict<?>
                ? Map.of("subject", "This issuer and subject are registered already: open their agent's page to"
                        + " change the registration. Nothing was written.")
                : ConsoleForms.problems(result);
        return HttpResponse.status(status).body(listPage(operator, values, problems, Optional.empty()));
    }

    /**
     * Removes a registration with its agent's settings, in two steps that need no script: without {@code confirm} the
     * answer is a page saying what goes, whose form sends {@code confirm=yes}; only that removes. Both carry the
     * session's CSRF token.
     */
    @Post(value = "/registrations/remove", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> remove(Authentication operator, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        Optional<MutableHttpResponse<?>> refused = ConsolePages.actionRefused(operator, form,
                List.of("issuer", "subject", CONFIRM), "/console/agents");
        if (refused.isPresent()) {
            return refused.get();
        }
        String issuer = form.get("issuer");
        String subject = form.get("subject");
        String confirm = form.get(CONFIRM);
        if (confirm == null) {
            return outsideAgents.registrations().stream()
                    .filter(r -> r.issuer().equals(issuer) && r.subject().equals(subject)).findFirst()
                    .<HttpResponse<?>>map(r -> HttpResponse.ok(ConsolePages.view("console/remove-registration",
                            ConsolePages.page("Remove a registration", "agents", operator),
                            Map.of("registration", r))))
                    .orElseGet(() -> ConsolePages.notFound(operator, "No registration for this issuer and subject."));
        }
        if (!CONFIRMED.equals(confirm)) {
            return ConsolePages.badRequest(ConsolePages.page("Refused", "agents", operator), "field",
                    Map.of(CONFIRM, "Sent as " + CONFIRMED + " by the confirmation page, or left out to be asked;"
                            + " no other value is taken."), "Nothing was removed.", "/console/agents");
        }
        AdminResult<Void> result = outsideAgents.unregister(issuer, subject, ConsolePages.actor(operator));
        if (result instanceof AdminResult.Done<Void>) {
            return ConsolePages.seeOther("/console/agents?removed");
        }
        return ConsolePages.notFound(operator, "No registration for this issuer and subject.");
    }

    private io.micronaut.views.ModelAndView<Map<String, Object>> listPage(Authentication operator,
            Map<String, String> form, Map<String, String> problems, Optional<String> notice) {
        TreeSet<String> threadAgents = new TreeSet<>();
        listing.agentIds().stream().filter(id -> HeldCapabilities.kindOf(id) == CallerKind.THREAD)
                .forEach(threadAgents::add);
        Map<String, Long> sessionCounts = new LinkedHashMap<>();
        sessions.current().forEach(s -> {
            threadAgents.add(s.logicalAgentId());
            sessionCounts.merge(s.logicalAgentId(), 1L, Long::sum);
        });
        List<AgentPage.Row> rows = threadAgents.stream().map(id -> new AgentPage.Row(id,
                agents.settings(id).map(AgentSettingsStore.Versioned::settings), sessionCounts.getOrDefault(id, 0L)))
                .toList();
        return ConsolePages.view("console/agents", ConsolePages.page("Agents", "agents", operator)
                .withNotice(notice), Map.of("agents", rows, "registrations", outsideAgents.registrations(),
                "form", form, "problems", problems));
    }
}
