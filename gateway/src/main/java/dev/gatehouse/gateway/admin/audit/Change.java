package dev.gatehouse.gateway.admin.audit;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one admin change did, as the audit keeps it. Never holds a secret: a credential change names the service
 * and the version, never the value; an attached session names its id, never its token.
 *
 * @param action        what was done, a stable word: {@code session.attach}, {@code session.revoke},
 *                      {@code agent.settings}, {@code outside-agent.register}, {@code outside-agent.remove},
 *                      {@code agent.delivery-profile}, {@code service.credential.replace},
 *                      {@code service.credential.remove}
 * @param target        what it was done to (a session id, an agent id, an issuer and subject, a service name)
 * @param agentId       the logical agent the change concerns, when one does (the audit's agent filter)
 * @param beforeVersion the version before the change, when the thing is versioned ({@code 0}: none yet)
 * @param afterVersion  the version after it
 * @param detail        a short human sentence of the change (values before and after, never a secret)
 */
public record Change(String action, String target, Optional<String> agentId, OptionalLong beforeVersion,
        OptionalLong afterVersion, String detail) {

    public Change {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(beforeVersion, "beforeVersion");
        Objects.requireNonNull(afterVersion, "afterVersion");
        Objects.requireNonNull(detail, "detail");
    }

    /** A change of something without versions. */
    public static Change of(String action, String target, Optional<String> agentId, String detail) {
        return new Change(action, target, agentId, OptionalLong.empty(), OptionalLong.empty(), detail);
    }

    /** A change from version {@code before} to {@code after}. */
    public static Change versioned(String action, String target, Optional<String> agentId, long before, long after,
            String detail) {
        return new Change(action, target, agentId, OptionalLong.of(before), OptionalLong.of(after), detail);
    }
}
