package dev.gatehouse.facade.host;

import java.util.Optional;

/**
 * Environment-wide preferences. As an update, an empty field stays as it is; as an answer, empty means unset.
 *
 * @param defaultRuntimeMode     runtime mode new threads get by default
 * @param defaultInteractionMode interaction mode new threads get by default
 * @param autoArchiveDays        days of inactivity before a thread is archived (0 = never)
 */
public record EnvironmentPreferences(Optional<String> defaultRuntimeMode, Optional<String> defaultInteractionMode,
        Optional<Integer> autoArchiveDays) {
}
