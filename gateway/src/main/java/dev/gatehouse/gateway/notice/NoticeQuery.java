package dev.gatehouse.gateway.notice;

import java.util.Optional;

/**
 * Which stored notices to list (docs/domain.md §9): every filter optional and matched exactly.
 *
 * @param state   one state, or every state
 * @param agentId the logical agent the notices were for
 * @param project the Project Service project they came from
 * @param limit   the most notices listed, newest received first (1 to 500)
 */
public record NoticeQuery(Optional<NoticeState> state, Optional<String> agentId, Optional<String> project,
        int limit) {
}
