package dev.gatehouse.facade.host;

import java.util.Optional;

/**
 * The shell of one thread as the host reports it: read on a call, listed, or carried by a thread event
 * (docs/domain.md §1: live run, current modes).
 *
 * @param threadId           the thread
 * @param archived           archived threads own no live run
 * @param runtimeMode        current runtime mode ({@code approval-required|auto-accept-edits|auto|full-access})
 * @param interactionMode    current interaction mode ({@code plan|default})
 * @param activeRunId        the active run, empty when none
 * @param providerInstanceId the provider instance the thread's session runs on, empty when none
 * @param t3ProjectId        the T3 project the thread belongs to, empty when none
 */
public record ThreadState(String threadId, boolean archived, String runtimeMode, String interactionMode,
        Optional<String> activeRunId, Optional<String> providerInstanceId, Optional<String> t3ProjectId) {
}
