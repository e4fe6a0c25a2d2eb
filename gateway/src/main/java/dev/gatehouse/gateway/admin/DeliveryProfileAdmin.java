package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import dev.gatehouse.gateway.admin.audit.Change;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.notice.DeliveryProfile;
import dev.gatehouse.gateway.notice.NoticeStore;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Agents' notice delivery profiles (docs/domain.md §9) for the admin API and the console: stored as facts for the
 * policy, which decides what they allow; every change audited.
 */
@Singleton
public class DeliveryProfileAdmin {

    /** A delivery profile as the admin API and the console take it; modes spelled as on the wire. */
    @Serdeable
    public record ProfileRequest(@Nullable String projectClientId, @Nullable String runtimeMode,
            @Nullable String interactionMode, @Nullable String limitRuntimeMode,
            @Nullable String limitInteractionMode) {
    }

    private final NoticeStore store;
    private final ChangeAudit audit;
    private final PolicyDecisionPoint pdp;
    private final KnownThreadAgents known;

    DeliveryProfileAdmin(NoticeStore store, ChangeAudit audit, PolicyDecisionPoint pdp, KnownThreadAgents known) {
        this.store = store;
        this.audit = audit;
        this.pdp = pdp;
        this.known = known;
    }

    public Optional<DeliveryProfile> profile(String agentId) {
        return store.profile(agentId);
    }

    /**
     * Replaces the agent's profile; refused when the agent is not a thread agent ({@link ThreadAgentIds}: notices
     * are delivered into an agent's threads, docs/domain.md §9, and an outside agent has none) or reads as another
     * known one ({@link KnownThreadAgents}), when the client id or a limit is missing, a text is not one
     * {@link StoredText} keeps, or a mode is not one of its axis in the serving revision.
     */
    public AdminResult<DeliveryProfile> put(String agentId, ProfileRequest request, Actor actor) {
        if (OutsideAgentIds.inNamespace(agentId)) {
            return AdminResult.refused(FieldProblem.invalid("agentId", "Notices are delivered only to thread agents,"
                    + " into their threads (docs/domain.md §9); " + OutsideAgentIds.PREFIX + "… ids are outside"
                    + " agents, which have no threads, so a delivery profile could never apply."));
        }
        Optional<FieldProblem> notThreadAgent = known.problem("agentId", agentId);
        if (notThreadAgent.isPresent()) {
            return AdminResult.refused(notThreadAgent.get());
        }
        List<FieldProblem> missing = new ArrayList<>();
        if (blank(request.projectClientId())) {
            missing.add(FieldProblem.missing("projectClientId"));
        }
        if (blank(request.limitRuntimeMode())) {
            missing.add(FieldProblem.missing("limitRuntimeMode"));
        }
        if (blank(request.limitInteractionMode())) {
            missing.add(FieldProblem.missing("limitInteractionMode"));
        }
        if (!missing.isEmpty()) {
            return new AdminResult.Refused<>(missing);
        }
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("projectClientId", request.projectClientId());
        texts.put("runtimeMode", request.runtimeMode());
        texts.put("interactionMode", request.interactionMode());
        texts.put("limitRuntimeMode", request.limitRuntimeMode());
        texts.put("limitInteractionMode", request.limitInteractionMode());
        List<FieldProblem> invalid = new ArrayList<>(StoredText.problems(texts));
        modeProblems(request).stream().filter(mode -> invalid.stream().noneMatch(text -> text.field()
                .equals(mode.field()))).forEach(invalid::add); // one problem per field: the text's first
        if (!invalid.isEmpty()) {
            return new AdminResult.Refused<>(invalid);
        }
        DeliveryProfile profile = new DeliveryProfile(agentId, request.projectClientId(),
                Optional.ofNullable(request.runtimeMode()).filter(m -> !m.isBlank()),
                Optional.ofNullable(request.interactionMode()).filter(m -> !m.isBlank()),
                request.limitRuntimeMode(), request.limitInteractionMode());
        return audit.write(actor, () -> {
            store.putProfile(profile);
            return ChangeAudit.Written.changed(new AdminResult.Done<>(profile),
                    Change.of("agent.delivery-profile", agentId, Optional.of(agentId), "client "
                            + profile.projectClientId() + "; modes " + profile.runtimeMode().orElse("(none)") + "/"
                            + profile.interactionMode().orElse("(none)") + "; limit " + profile.limitRuntimeMode()
                            + "/" + profile.limitInteractionMode()));
        });
    }

    /**
     * A mode the serving revision does not name on its axis, for each field that holds one: the notice policy would
     * only deny every delivery that needs a thread ({@code notice_modes_invalid}) with no word at the moment the
     * typo was made. Which names are modes is the revision's ({@code enforcement.modes}); with no revision serving,
     * nothing is refused here and the policy decides later, as ever.
     */
    private List<FieldProblem> modeProblems(ProfileRequest request) {
        Map<String, List<String>> modes = pdp.serving().map(served -> served.contents().modes()).orElse(Map.of());
        List<FieldProblem> problems = new ArrayList<>();
        // Each field with the axis its mode is on (the profile's wire names; the axes are the policy's).
        String[][] fields = {{"runtimeMode", "runtimeMode", request.runtimeMode()},
            {"interactionMode", "interactionMode", request.interactionMode()},
            {"limitRuntimeMode", "runtimeMode", request.limitRuntimeMode()},
            {"limitInteractionMode", "interactionMode", request.limitInteractionMode()}};
        for (String[] field : fields) {
            List<String> known = modes.getOrDefault(field[1], List.of());
            if (!blank(field[2]) && !known.isEmpty() && !known.contains(field[2])) {
                problems.add(FieldProblem.invalid(field[0], "Not a mode of the served revision on this axis; it"
                        + " knows " + String.join(", ", known) + "."));
            }
        }
        return problems;
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
