package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.Actor;
import dev.gatehouse.gateway.admin.audit.Change;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import dev.gatehouse.gateway.notice.DeliveryProfile;
import dev.gatehouse.gateway.notice.NoticeStore;
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

    public DeliveryProfileAdmin(NoticeStore store, ChangeAudit audit) {
        this.store = store;
        this.audit = audit;
    }

    public Optional<DeliveryProfile> profile(String agentId) {
        return store.profile(agentId);
    }

    /**
     * Replaces the agent's profile; refused when the client id or a limit is missing, or a text is not one
     * {@link StoredText} keeps.
     */
    public AdminResult<DeliveryProfile> put(String agentId, ProfileRequest request, Actor actor) {
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
        List<FieldProblem> invalid = StoredText.problems(texts);
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

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
