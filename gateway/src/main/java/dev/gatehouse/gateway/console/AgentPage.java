package dev.gatehouse.gateway.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.AgentAdmin;
import dev.gatehouse.gateway.admin.AgentSettingsRequest;
import dev.gatehouse.gateway.admin.DeliveryProfileAdmin;
import dev.gatehouse.gateway.admin.FieldProblem;
import dev.gatehouse.gateway.admin.HeldCapabilities;
import dev.gatehouse.gateway.admin.OutsideAgentAdmin;
import dev.gatehouse.gateway.admin.OutsideAgentRequest;
import dev.gatehouse.gateway.admin.OutsideAgentView;
import dev.gatehouse.gateway.admin.SessionAdmin;
import dev.gatehouse.gateway.admin.SessionView;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.notice.DeliveryProfile;
import dev.gatehouse.gateway.policy.PolicyDocument;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.views.ModelAndView;
import jakarta.inject.Singleton;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds one agent's page (src/main/jte/console/agent.jte) from the admin services, with an edit that failed. */
@Singleton
public class AgentPage {

    /**
     * One thread agent in the list.
     *
     * @param id       its id
     * @param settings its stored settings, if any
     * @param sessions how many current sessions it has
     */
    public record Row(String id, Optional<AgentSettings> settings, long sessions) {
    }

    /**
     * A form as submitted and why it was not applied.
     *
     * @param form            which form: {@code settings}, {@code profile}, {@code registration}, or empty
     * @param settings        the submitted settings
     * @param profile         the submitted delivery profile
     * @param registration    the submitted registration
     * @param problems        field → message
     * @param conflictVersion the version now stored, when the edit was stale
     */
    public record Edit(String form, Optional<AgentSettingsRequest> settings,
            Optional<DeliveryProfileAdmin.ProfileRequest> profile, Optional<OutsideAgentRequest> registration,
            Map<String, String> problems, Optional<Long> conflictVersion) {

        static Edit none() {
            return new Edit("", Optional.empty(), Optional.empty(), Optional.empty(), Map.of(), Optional.empty());
        }

        static Edit settings(AgentSettingsRequest request, AdminResult<?> result) {
            return new Edit("settings", Optional.of(request), Optional.empty(), Optional.empty(),
                    ConsoleForms.problems(result), result instanceof AdminResult.Conflict<?> c
                            ? Optional.of(c.currentVersion()) : Optional.empty());
        }

        static Edit profile(DeliveryProfileAdmin.ProfileRequest request, AdminResult<?> result) {
            return new Edit("profile", Optional.empty(), Optional.of(request), Optional.empty(),
                    ConsoleForms.problems(result), Optional.empty());
        }

        static Edit registration(OutsideAgentRequest request, AdminResult<?> result) {
            return new Edit("registration", Optional.empty(), Optional.empty(), Optional.of(request),
                    ConsoleForms.problems(result), result instanceof AdminResult.Conflict<?> c
                            ? Optional.of(c.currentVersion()) : Optional.empty());
        }
    }

    /**
     * What the policy says the agent holds.
     *
     * @param scopes   the scope names, when the PDP answered
     * @param revision the bundle revision that answered
     * @param ceiling  the ceiling asked at (outside agents)
     * @param fault    why the PDP did not answer
     */
    public record Held(List<String> scopes, String revision, Optional<String> ceiling, Optional<String> fault) {
    }

    private final AgentAdmin agents;
    private final OutsideAgentAdmin outsideAgents;
    private final DeliveryProfileAdmin profiles;
    private final SessionAdmin sessions;
    private final HeldCapabilities held;

    public AgentPage(AgentAdmin agents, OutsideAgentAdmin outsideAgents, DeliveryProfileAdmin profiles,
            SessionAdmin sessions, HeldCapabilities held) {
        this.agents = agents;
        this.outsideAgents = outsideAgents;
        this.profiles = profiles;
        this.sessions = sessions;
        this.held = held;
    }

    /** The page's path for {@code agentId} (encoded as one path segment). */
    static String path(String agentId) {
        return "/console/agents/" + URLEncoder.encode(agentId, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The page, the policy asked at {@code ceiling}: one of {@link HeldCapabilities#ceilings()}, or none. */
    ModelAndView<Map<String, Object>> render(Authentication operator, String agentId, Edit edit,
            Optional<String> notice, Optional<String> ceiling) {
        boolean outside = HeldCapabilities.kindOf(agentId) == CallerKind.OUTSIDE_AGENT;
        Optional<AgentSettingsStore.Versioned> stored = outside ? Optional.empty() : agents.settings(agentId);
        Optional<OutsideAgentView> registration = outside ? outsideAgents.byAgent(agentId) : Optional.empty();
        AgentSettingsRequest current = registration.map(AgentPage::settingsOf).orElseGet(() ->
                new AgentSettingsRequest(stored.map(s -> s.settings().browserAccess()).orElse(false),
                        new AgentSettingsRequest.Project(stored.map(s -> s.settings().project().enabled()).orElse(false),
                                stored.flatMap(s -> s.settings().project().projectServiceProjectId()).orElse(null)),
                        new AgentSettingsRequest.Wiki(stored.map(s -> s.settings().wiki().read()).orElse(false),
                                stored.map(s -> s.settings().wiki().write()).orElse(false)),
                        stored.map(AgentSettingsStore.Versioned::version).orElse(0L)));
        // A failed edit shows the values submitted, at the version now stored when it was stale or its version was
        // no number.
        AgentSettingsRequest shown = edit.settings()
                .or(() -> edit.registration().map(r -> new AgentSettingsRequest(r.browserAccess(), r.project(),
                        r.wiki(), r.version())))
                .map(s -> new AgentSettingsRequest(s.browserAccess(), s.project(), s.wiki(),
                        edit.conflictVersion().or(() -> Optional.ofNullable(s.version())).orElse(current.version())))
                .orElse(current);
        Optional<DeliveryProfile> profile = profiles.profile(agentId);
        DeliveryProfileAdmin.ProfileRequest profileShown = edit.profile().orElseGet(() -> new DeliveryProfileAdmin
                .ProfileRequest(profile.map(DeliveryProfile::projectClientId).orElse(null),
                        profile.flatMap(DeliveryProfile::runtimeMode).orElse(null),
                        profile.flatMap(DeliveryProfile::interactionMode).orElse(null),
                        profile.map(DeliveryProfile::limitRuntimeMode).orElse(null),
                        profile.map(DeliveryProfile::limitInteractionMode).orElse(null)));
        List<String> ceilings = held.ceilings();
        List<SessionView> agentSessions = sessions.current().stream()
                .filter(s -> s.logicalAgentId().equals(agentId)).toList();
        return ConsolePages.view("console/agent", ConsolePages.page("Agent", "agents", operator)
                .withNotice(notice), Map.ofEntries(
                        Map.entry("agentId", agentId),
                        Map.entry("outside", outside),
                        Map.entry("settings", shown),
                        Map.entry("stored", current),
                        Map.entry("registration", edit.registration().map(r -> (Object) r)
                                .or(() -> registration.map(r -> (Object) r))),
                        Map.entry("profile", profileShown),
                        Map.entry("edit", edit),
                        Map.entry("held", held(agentId, ceiling)),
                        Map.entry("ceilings", ceilings),
                        Map.entry("sessions", agentSessions)));
    }

    private Held held(String agentId, Optional<String> ceiling) {
        PolicyOutcome<HeldCapabilities.Held> outcome = held.of(agentId, ceiling);
        if (outcome instanceof PolicyOutcome.Decided<HeldCapabilities.Held> decided) {
            return new Held(decided.value().scopes(), decided.value().revision(), ceiling, Optional.empty());
        }
        return new Held(List.of(), "", ceiling, Optional.of(((PolicyOutcome.Failed<HeldCapabilities.Held>) outcome)
                .fault().detail()));
    }

    /** The settings' checkboxes, on the settings form and the registration form. */
    static final List<String> CHECKBOXES = List.of("browserAccess", "projectEnabled", "wikiRead", "wikiWrite");
    /** The settings form's other fields. */
    static final List<String> SETTINGS_FIELDS = List.of("version", "projectServiceProjectId");
    /** The registration form's other fields ({@code from}: the agent page it was sent from, if any). */
    static final List<String> REGISTRATION_FIELDS = List.of("from", "issuer", "subject", "logicalAgentId",
            "sharesThreadAgent", "version", "projectServiceProjectId");

    /** What is wrong with the settings form's shape ({@link ConsoleForms#shape}) or its version (required). */
    static List<FieldProblem> settingsShape(Map<String, String> form) {
        List<FieldProblem> problems = new ArrayList<>(ConsoleForms.shape(form, SETTINGS_FIELDS, CHECKBOXES));
        if (ConsoleForms.version(form).isEmpty()) {
            problems.add(ConsoleForms.badVersion());
        }
        return problems;
    }

    /**
     * What is wrong with the registration form's shape ({@link ConsoleForms#shape}) or its version, which the agent's
     * page sends as the registration's and the list's form as 0 ({@link #registrationOf}): absent it is no problem,
     * but never anything but a number.
     */
    static List<FieldProblem> registrationShape(Map<String, String> form) {
        List<FieldProblem> problems = new ArrayList<>(ConsoleForms.shape(form, REGISTRATION_FIELDS, CHECKBOXES));
        if (form.containsKey("version") && ConsoleForms.version(form).isEmpty()) {
            problems.add(ConsoleForms.badVersion());
        }
        return problems;
    }

    /**
     * The settings form's fields as the admin API's request; its version null when the form's is not one (refused by
     * {@link #settingsShape}, never sent on: null would be "last write wins").
     */
    static AgentSettingsRequest settingsOf(Map<String, String> form) {
        Long version = ConsoleForms.version(form).orElse(null);
        return new AgentSettingsRequest(ConsolePages.checked(form, "browserAccess"),
                new AgentSettingsRequest.Project(ConsolePages.checked(form, "projectEnabled"),
                        form.get("projectServiceProjectId")),
                new AgentSettingsRequest.Wiki(ConsolePages.checked(form, "wikiRead"),
                        ConsolePages.checked(form, "wikiWrite")), version);
    }

    /**
     * The registration form's fields as the admin API's request (blank optional fields are absent). The version the
     * form was made from is checked as the API's is: the agent's page sends the registration's, the list's form 0 (a
     * new registration only); a form without one replaces whatever is stored.
     */
    static OutsideAgentRequest registrationOf(Map<String, String> form) {
        AgentSettingsRequest settings = settingsOf(form);
        return new OutsideAgentRequest(form.get("issuer"), form.get("subject"),
                ConsolePages.text(form, "logicalAgentId"), ConsolePages.text(form, "sharesThreadAgent"),
                settings.browserAccess(), settings.project(), settings.wiki(),
                form.containsKey("version") ? settings.version() : null);
    }

    /** A registration's stored settings in the settings form's shape, at the registration's version. */
    private static AgentSettingsRequest settingsOf(OutsideAgentView registration) {
        return new AgentSettingsRequest(registration.browserAccess(), new AgentSettingsRequest.Project(
                registration.project().enabled(), registration.project().projectServiceProjectId()),
                new AgentSettingsRequest.Wiki(registration.wiki().read(), registration.wiki().write()),
                registration.version());
    }
}
