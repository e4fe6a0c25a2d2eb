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

    public AgentAdmin(AgentSettingsStore settings, ChangeAudit audit) {
        this.settings = settings;
        this.audit = audit;
    }

    /** Whether {@code agentId} may name a thread agent ({@link ThreadAgentIds}): done, or refused on {@code agentId}. */
    public AdminResult<Void> checkThreadAgentId(String agentId) {
        return ThreadAgentIds.problem("agentId", agentId).<AdminResult<Void>>map(AdminResult::refused)
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
     * @return the stored settings and version; refused for an id that is not a thread agent's, a Project enabled
     *         without a project, an {@code If-None-Match} other than that, or a malformed or contradictory version; a
     *         conflict when the version is stale or settings are stored against {@code If-None-Match: *}; a failed
     *         precondition for a weak {@code If-Match} tag, and for {@code If-Match: *} when none are stored
     */
    public AdminResult<AgentSettingsStore.Versioned> put(String agentId, AgentSettingsRequest request,
            Optional<String> ifMatch, Optional<String> ifNoneMatch, Actor actor) {
        List<FieldProblem> problems = new ArrayList<>();
        if (ifNoneMatch.isPresent() && (!ifNoneMatch.get().strip().equals("*") || ifMatch.isPresent())) {
            problems.add(FieldProblem.invalid("If-None-Match", "Takes * alone, without If-Match: the settings are"
                    + " written only when none are stored yet."));
        }
        ThreadAgentIds.problem("agentId", agentId).ifPresent(problems::add);
        Optional<AgentSettings> wanted = request.settings();
        if (wanted.isEmpty()) {
            problems.add(FieldProblem.missing(AgentSettingsRequest.PROJECT_ID_FIELD));
        }
        if (request.project() != null) {
            StoredText.problem(AgentSettingsRequest.PROJECT_ID_FIELD, request.project().projectServiceProjectId())
                    .ifPresent(problems::add);
        }
        String tag = ifMatch.map(String::strip).orElse("");
        boolean anyStored = tag.equals("*");
        boolean weak = tag.startsWith("W/");
        // Version 0 is "none stored": the store writes only when there is none, else answers a conflict.
        Optional<OptionalLong> expected = expectedVersion(ifNoneMatch.isPresent() ? Optional.of("0")
                : anyStored || weak ? Optional.empty() : ifMatch, request.version());
        if (expected.isEmpty() || anyStored && request.version() != null && request.version() == 0) {
            problems.add(FieldProblem.invalid("version",
                    "If-Match and version must be one non-negative version number and agree"));
        }
        if (!problems.isEmpty()) {
            return new AdminResult.Refused<>(problems);
        }
        if (weak) {
            return new AdminResult.PreconditionFailed<>("If-Match compares strongly (RFC 9110 §13.1.1): a weak"
                    + " entity tag never matches. Send the ETag as given, e.g. \"3\".");
        }
        return audit.write(actor, () -> {
            Optional<AgentSettingsStore.Versioned> before = settings.find(agentId);
            if (anyStored && before.isEmpty()) {
                return ChangeAudit.Written.unchanged(new AdminResult.PreconditionFailed<>(
                        "If-Match: * matches stored settings, and this agent has none."));
            }
            // *: the version just read, so that a write between the read and this one is a conflict, not lost.
            OptionalLong version = anyStored && expected.get().isEmpty()
                    ? OptionalLong.of(before.get().version()) : expected.get();
            AgentSettingsStore.Write write = settings.put(agentId, wanted.get(), version);
            if (write instanceof AgentSettingsStore.Write.Conflict conflict) {
                return ChangeAudit.Written.unchanged(new AdminResult.Conflict<>(conflict.currentVersion()));
            }
            AgentSettingsStore.Versioned stored = ((AgentSettingsStore.Write.Stored) write).stored();
            return ChangeAudit.Written.changed(new AdminResult.Done<>(stored),
                    Change.versioned("agent.settings", agentId, Optional.of(agentId), stored.version() - 1,
                            stored.version(), SettingsDifference.describe(
                                    before.map(AgentSettingsStore.Versioned::settings), wanted.get())));
        });
    }

    /**
     * The expected version from a strong {@code If-Match} tag and/or the body: empty optional when malformed or
     * contradictory, empty {@link OptionalLong} when neither was sent.
     */
    static Optional<OptionalLong> expectedVersion(Optional<String> ifMatch, Long bodyVersion) {
        OptionalLong header = OptionalLong.empty();
        if (ifMatch.isPresent() && !ifMatch.get().isBlank()) {
            String tag = ifMatch.get().strip();
            if (tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")) {
                tag = tag.substring(1, tag.length() - 1);
            }
            if (!tag.matches("[0-9]{1,18}")) {
                return Optional.empty();
            }
            header = OptionalLong.of(Long.parseLong(tag));
        }
        if (bodyVersion != null) {
            if (bodyVersion < 0 || (header.isPresent() && header.getAsLong() != bodyVersion)) {
                return Optional.empty();
            }
            return Optional.of(OptionalLong.of(bodyVersion));
        }
        return Optional.of(header);
    }
}
