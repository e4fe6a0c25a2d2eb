package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.EnvironmentPreferences;
import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** {@code t3_environment_preferences_update}: changes environment-wide preferences. */
@Singleton
public class EnvironmentPreferencesUpdateTool implements ToolHandler {

    private final HostFacade host;

    public EnvironmentPreferencesUpdateTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_environment_preferences_update";
    }

    /** @return {@code {preferences: {defaultRuntimeMode?, defaultInteractionMode?, autoArchiveDays?}}} after it */
    @Override
    @SuppressWarnings("unchecked")
    public ToolOutcome handle(ToolCall call) {
        Map<String, Object> requested = (Map<String, Object>) call.arguments().get("preferences");
        EnvironmentPreferences changes = new EnvironmentPreferences(
                Args.optionalText(requested, "defaultRuntimeMode"),
                Args.optionalText(requested, "defaultInteractionMode"),
                Optional.ofNullable((Number) requested.get("autoArchiveDays")).map(Number::intValue));
        return Recovery.of(host.updatePreferences(ThreadViews.caller(call.context()), changes,
                call.idempotencyKey()), preferences -> {
            Map<String, Object> out = new LinkedHashMap<>();
            preferences.defaultRuntimeMode().ifPresent(mode -> out.put("defaultRuntimeMode", mode));
            preferences.defaultInteractionMode().ifPresent(mode -> out.put("defaultInteractionMode", mode));
            preferences.autoArchiveDays().ifPresent(days -> out.put("autoArchiveDays", days));
            return Map.of("preferences", out);
        });
    }
}
