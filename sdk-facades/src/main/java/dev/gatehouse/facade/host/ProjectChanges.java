package dev.gatehouse.facade.host;

import java.util.Optional;

/** Changes to a T3 project; an empty field stays as it is. */
public record ProjectChanges(Optional<String> name, Optional<String> defaultBranch) {
}
