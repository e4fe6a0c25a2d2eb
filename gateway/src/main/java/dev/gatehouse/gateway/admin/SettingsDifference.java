package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.context.AgentSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The audit's sentence for a settings change: each setting that changed, as {@code name: before → after}. */
final class SettingsDifference {

    private SettingsDifference() {
    }

    static String describe(Optional<AgentSettings> before, AgentSettings after) {
        AgentSettings old = before.orElse(AgentSettings.NONE);
        List<String> changed = new ArrayList<>();
        compare(changed, "browser", old.browserAccess(), after.browserAccess());
        compare(changed, "project work", old.project().enabled(), after.project().enabled());
        compare(changed, "project binding", old.project().projectServiceProjectId().orElse("none"),
                after.project().projectServiceProjectId().orElse("none"));
        compare(changed, "wiki read", old.wiki().read(), after.wiki().read());
        compare(changed, "wiki write", old.wiki().write(), after.wiki().write());
        if (changed.isEmpty()) {
            return before.isEmpty() ? "settings stored (all off)" : "settings stored unchanged";
        }
        return String.join("; ", changed);
    }

    private static void compare(List<String> changed, String name, Object before, Object after) {
        if (!before.equals(after)) {
            changed.add(name + ": " + text(before) + " → " + text(after));
        }
    }

    private static String text(Object value) {
        if (value instanceof Boolean on) {
            return on ? "on" : "off";
        }
        return value.toString();
    }
}
