package dev.gatehouse.facade.host;

import java.util.Optional;

/**
 * A T3 project of the environment, without the host's workspace reference.
 *
 * @param t3ProjectId   the T3 project id (business data: names a project in t3_thread_launch)
 * @param name          display name
 * @param defaultBranch default git branch, empty when unset
 */
public record HostProject(String t3ProjectId, String name, Optional<String> defaultBranch) {
}
