package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import dev.gatehouse.gateway.admin.audit.Change;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentIdTakenException;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Outside-agent registrations (docs/domain.md §1) for the admin API and the console: issuer + subject → a logical
 * agent in the outside-agent namespace, its settings, and the one thread agent whose wiki subtree it shares, if any.
 * Every change is audited.
 */
@Singleton
public class OutsideAgentAdmin {

    private final AgentDirectory directory;
    private final ChangeAudit audit;
    private final SharedThreadAgents sharedThreadAgents;
    private final RegistrationIssuers issuers;

    OutsideAgentAdmin(AgentDirectory directory, ChangeAudit audit, SharedThreadAgents sharedThreadAgents,
            RegistrationIssuers issuers) {
        this.directory = directory;
        this.audit = audit;
        this.sharedThreadAgents = sharedThreadAgents;
        this.issuers = issuers;
    }

    /** Every registration with its agent's current settings and its version, ordered by issuer then subject. */
    public List<OutsideAgentView> registrations() {
        return directory.registrations().stream().map(this::view).toList();
    }

    /** The registration of {@code agentId}, if one names it. */
    public Optional<OutsideAgentView> byAgent(String agentId) {
        return directory.registrations().stream().filter(r -> r.registration().logicalAgentId().equals(agentId))
                .findFirst().map(this::view);
    }

    /**
     * Registers (or replaces the registration of) an issuer and subject, when the registration is still at the
     * version the writer read ({@code If-Match}, {@code If-None-Match: *} or the request's {@code version}, read as
     * {@link AgentAdmin#put} reads them; none: last write wins). Refused when either is missing, when the issuer is
     * not an OAuth issuer ({@link RegistrationIssuers}), when the agent id is not a registered-form id in the
     * outside-agent namespace (or is another pair's derived id), when another pair is registered under that id (a
     * registration carries its own settings, docs/domain.md §1), when the shared thread agent is blank, an outside
     * agent or not one that may be shared ({@link SharedThreadAgents}), when Project is enabled without a project,
     * when the issuer, subject or project is not a text {@link StoredText} keeps, or for preconditions
     * {@link AgentAdmin#put} refuses; a conflict when the version is stale; a failed precondition for a weak
     * {@code If-Match} tag, for {@code If-Match: *} when the pair has no registration, and for
     * {@code If-None-Match: *} when it has one ({@link ExpectedVersion}). A refusal, conflict or failed precondition
     * writes nothing. A pair registered again under another id loses the old id's settings with it
     * ({@link AgentDirectory#register}).
     */
    public AdminResult<OutsideAgentView> register(OutsideAgentRequest request, Optional<String> ifMatch,
            Optional<String> ifNoneMatch, Actor actor) {
        List<FieldProblem> missing = new ArrayList<>();
        if (request.issuer() == null || request.issuer().isBlank()) {
            missing.add(FieldProblem.missing("issuer"));
        }
        if (request.subject() == null || request.subject().isBlank()) {
            missing.add(FieldProblem.missing("subject"));
        }
        if (!missing.isEmpty()) {
            return new AdminResult.Refused<>(missing);
        }
        ExpectedVersion expected = ExpectedVersion.of(ifMatch, ifNoneMatch, request.version(),
                "the registration is written only when none is stored yet");
        List<FieldProblem> problems = new ArrayList<>(expected.problems());
        List<FieldProblem> texts = StoredText.problems(texts(request));
        problems.addAll(texts);
        if (texts.stream().noneMatch(p -> p.field().equals("issuer"))) {
            issuers.problem(request.issuer()).ifPresent(problems::add);
        }
        String derived = OutsideAgentIds.derive(request.issuer(), request.subject());
        String agentId = Optional.ofNullable(request.logicalAgentId()).orElse(derived);
        if (!OutsideAgentIds.REGISTERED.matcher(agentId).matches()
                || OutsideAgentIds.DERIVED.matcher(agentId).matches() && !agentId.equals(derived)) {
            problems.add(FieldProblem.invalid("logicalAgentId", "An outside agent's id is " + OutsideAgentIds.PREFIX
                    + " followed by lower-case letters, digits, '.', '_' or '-' (at most 64), and not another"
                    + " issuer and subject's derived id."));
        }
        Optional<String> shared = Optional.ofNullable(request.sharesThreadAgent());
        if (shared.isPresent()) {
            if (shared.get().isBlank()) {
                problems.add(FieldProblem.invalid("sharesThreadAgent", "Name a thread agent, or share none."));
            } else {
                sharedThreadAgents.problem("sharesThreadAgent", shared.get()).ifPresent(problems::add);
            }
        }
        Optional<AgentSettings> settings = AgentSettingsRequest.settings(request.browserAccess(), request.project(),
                request.wiki());
        if (settings.isEmpty()) {
            problems.add(FieldProblem.missing(AgentSettingsRequest.PROJECT_ID_FIELD));
        }
        if (!problems.isEmpty()) {
            return new AdminResult.Refused<>(problems);
        }
        if (expected.weak()) {
            return new AdminResult.PreconditionFailed<>(ExpectedVersion.WEAK_TAG);
        }
        OutsideAgentRegistration registration = new OutsideAgentRegistration(request.issuer(), request.subject(),
                agentId, shared);
        try {
            return audit.write(actor, () -> {
                Optional<AgentDirectory.Registered> current = directory.registrations().stream()
                        .filter(r -> r.registration().issuer().equals(request.issuer())
                                && r.registration().subject().equals(request.subject()))
                        .findFirst();
                Optional<OptionalLong> version = expected.against(current.map(AgentDirectory.Registered::version)
                        .orElse(0L));
                if (version.isEmpty()) {
                    return ChangeAudit.Written.unchanged(new AdminResult.PreconditionFailed<OutsideAgentView>(
                            "If-Match: * matches a stored registration, and this issuer and subject have none."));
                }
                Optional<AgentSettings> before = current
                        .map(r -> directory.settings(AgentKey.outside(r.registration().logicalAgentId())));
                AgentDirectory.Write write = directory.register(registration, settings.get(), version.get());
                if (write instanceof AgentDirectory.Write.Conflict conflict) {
                    return ChangeAudit.Written.unchanged(expected.<OutsideAgentView>refusedAt(
                            conflict.currentVersion(), "this issuer and subject's registration is"));
                }
                AgentDirectory.Write.Stored stored = (AgentDirectory.Write.Stored) write;
                String moved = stored.replaced().map(OutsideAgentRegistration::logicalAgentId)
                        .filter(old -> !old.equals(agentId))
                        .map(old -> "; was " + old + ", whose settings are removed").orElse("");
                return ChangeAudit.Written.changed(new AdminResult.Done<>(OutsideAgentView.of(
                        new AgentDirectory.Registered(registration, stored.version()), settings.get())),
                        Change.versioned("outside-agent.register", request.issuer() + " " + request.subject(),
                                Optional.of(agentId), stored.version() - 1, stored.version(), "registered as "
                                        + agentId + moved + "; shares " + shared.orElse("no thread agent's")
                                        + " subtree; " + SettingsDifference.describe(before, settings.get())));
            });
        } catch (AgentIdTakenException e) {
            return AdminResult.refused(FieldProblem.invalid("logicalAgentId", takenBy(agentId)));
        }
    }

    /** Why an id another pair holds is refused, naming that pair: issuer and subject are not secrets. */
    private String takenBy(String agentId) {
        String holder = directory.registrations().stream().map(AgentDirectory.Registered::registration)
                .filter(r -> r.logicalAgentId().equals(agentId)).findFirst()
                .map(r -> " (issuer " + r.issuer() + ", subject " + r.subject() + ")").orElse("");
        return "This id is another registration's" + holder + ". A registration carries its own settings, so choose"
                + " another id, or remove that registration first.";
    }

    /**
     * Removes a registration and, with it, its agent's settings: from the next call on the pair acts as its derived
     * id with none, so nothing the registration granted stays in force (docs/domain.md §1).
     */
    public AdminResult<Void> unregister(String issuer, String subject, Actor actor) {
        if (issuer == null || subject == null) {
            return new AdminResult.Refused<>(List.of(FieldProblem.missing("issuer"), FieldProblem.missing("subject")));
        }
        return audit.write(actor, () -> {
            Optional<AgentDirectory.Removed> removed = directory.unregister(issuer, subject);
            if (removed.isEmpty()) {
                return ChangeAudit.Written.unchanged(new AdminResult.NotFound<Void>());
            }
            String agentId = removed.get().registration().logicalAgentId();
            AgentSettings was = removed.get().settings();
            return ChangeAudit.Written.changed(new AdminResult.Done<Void>(null),
                    Change.of("outside-agent.remove", issuer + " " + subject, Optional.of(agentId),
                            "registration removed, and the settings of " + agentId + " with it: "
                                    + (was.equals(AgentSettings.NONE) ? "all were off"
                                            : SettingsDifference.describe(Optional.of(was), AgentSettings.NONE))));
        });
    }

    private OutsideAgentView view(AgentDirectory.Registered registered) {
        return OutsideAgentView.of(registered,
                directory.settings(AgentKey.outside(registered.registration().logicalAgentId())));
    }

    /** The free texts of a registration, by field. */
    private static Map<String, String> texts(OutsideAgentRequest request) {
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("issuer", request.issuer());
        texts.put("subject", request.subject());
        texts.put(AgentSettingsRequest.PROJECT_ID_FIELD, request.project() == null ? null
                : request.project().projectServiceProjectId());
        return texts;
    }
}
