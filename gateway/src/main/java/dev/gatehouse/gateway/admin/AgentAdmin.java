package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import dev.gatehouse.gateway.admin.audit.Change;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Thread agents' settings (docs/domain.md §4) for the admin API and the console: read with their version, replaced
 * whole with the version check, every change audited with the versions before and after and what changed. A change
 * applies from the agent's next call, in every live session, on every replica.
 */
@Singleton
public class AgentAdmin {

    private final AgentSettingsStore settings;
    private final ChangeAudit audit;
    private final KnownThreadAgents known;

    AgentAdmin(AgentSettingsStore settings, ChangeAudit audit, KnownThreadAgents known) {
        this.settings = settings;
        this.audit = audit;
        this.known = known;
    }

    /**
     * Whether an operator may name {@code agentId} as a thread agent ({@link ThreadAgentIds}, and not reading as
     * another known agent: {@link KnownThreadAgents}): done, or refused on {@code agentId}.
     */
    public AdminResult<Void> checkThreadAgentId(String agentId) {
        return known.problem("agentId", agentId).<AdminResult<Void>>map(AdminResult::refused)
                .orElseGet(() -> new AdminResult.Done<>(null));
    }

    /** The stored settings with their version; empty when never set. */
    public Optional<AgentSettingsStore.Versioned> settings(String agentId) {
        return settings.find(agentId);
    }

    /**
     * Replaces a thread agent's settings.
     *
     * @param ifMatch     the {@code If-Match} header, if any, compared strongly (RFC 9110 §13.1.1): one entity tag
     *                    ({@code "3"}, or {@code 3} unquoted), which the stored version must equal; {@code *}, which
     *                    any stored settings match; a weak tag ({@code W/"3"}), which nothing matches
     * @param ifNoneMatch the {@code If-None-Match} header, if any: {@code *} alone, without {@code If-Match}, writes
     *                    the settings only when none are stored (RFC 9110 §13.1.2), as the expected version 0 does
     * @return the stored settings and version; refused for an id that is not a thread agent's or reads as another
     *         known one ({@link KnownThreadAgents}), a Project enabled
     *         without a project, an {@code If-None-Match} other than that, or a malformed or contradictory version; a
     *         conflict when the version is stale; a failed precondition for a weak {@code If-Match} tag, for
     *         {@code If-Match: *} when none are stored, and for {@code If-None-Match: *} when some are
     */
    public AdminResult<AgentSettingsStore.Versioned> put(String agentId, AgentSettingsRequest request,
            Optional<String> ifMatch, Optional<String> ifNoneMatch, Actor actor) {
        ExpectedVersion expected = ExpectedVersion.of(ifMatch, ifNoneMatch, request.version(),
                "the settings are written only when none are stored yet");
        List<FieldProblem> problems = new ArrayList<>(expected.problems());
        known.problem("agentId", agentId).ifPresent(problems::add);
        Optional<AgentSettings> wanted = request.settings();
        if (wanted.isEmpty()) {
            problems.add(FieldProblem.missing(AgentSettingsRequest.PROJECT_ID_FIELD));
        }
        if (request.project() != null) {
            StoredText.problem(AgentSettingsRequest.PROJECT_ID_FIELD, request.project().projectServiceProjectId())
                    .ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            return new AdminResult.Refused<>(problems);
        }
        if (expected.weak()) {
            return new AdminResult.PreconditionFailed<>(ExpectedVersion.WEAK_TAG);
        }
        return audit.write(actor, () -> {
            Optional<AgentSettingsStore.Versioned> before = settings.find(agentId);
            Optional<OptionalLong> version = expected.against(before.map(AgentSettingsStore.Versioned::version)
                    .orElse(0L));
            if (version.isEmpty()) {
                return ChangeAudit.Written.unchanged(new AdminResult.PreconditionFailed<>(
                        "If-Match: * matches stored settings, and this agent has none."));
            }
            AgentSettingsStore.Write write = settings.put(agentId, wanted.get(), version.get());
            if (write instanceof AgentSettingsStore.Write.Conflict conflict) {
                return ChangeAudit.Written.unchanged(expected.refusedAt(conflict.currentVersion(),
                        "this agent's settings are"));
            }
            AgentSettingsStore.Versioned stored = ((AgentSettingsStore.Write.Stored) write).stored();
            return ChangeAudit.Written.changed(new AdminResult.Done<>(stored),
                    Change.versioned("agent.settings", agentId, Optional.of(agentId), stored.version() - 1,
                            stored.version(), SettingsDifference.describe(
                                    before.map(AgentSettingsStore.Versioned::settings), wanted.get())));
        });
    }
}
