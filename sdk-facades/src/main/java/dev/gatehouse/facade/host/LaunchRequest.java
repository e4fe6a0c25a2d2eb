package dev.gatehouse.facade.host;

import java.util.Optional;

/**
 * A new thread to start.
 *
 * @param t3ProjectId the T3 project to start it in (business data)
 * @param prompt      first message
 * @param title       optional title
 * @param modes       the resolved modes (the decision's obligation), never {@code inherit}
 */
public record LaunchRequest(String t3ProjectId, String prompt, Optional<String> title, ThreadModes modes) {
}
