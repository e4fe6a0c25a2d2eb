package dev.gatehouse.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Default locations in the checkout: {@code GATEHOUSE_HOME} (set by scripts/gatehouse), else the system property
 * {@code gatehouse.root} (the tests), else the nearest folder upwards from the working directory with a policies/.
 */
final class Defaults {

    static final String PROFILES = "policy-tests/review/profiles.json";

    private Defaults() {
    }

    static Path root() {
        String home = System.getenv("GATEHOUSE_HOME");
        if (home == null || home.isBlank()) {
            home = System.getProperty("gatehouse.root");
        }
        if (home != null && !home.isBlank()) {
            return Path.of(home).toAbsolutePath().normalize();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("policies"))) {
                return p;
            }
        }
        return Path.of("").toAbsolutePath();
    }

    static Path policies() {
        return root().resolve("policies");
    }

    static Path profiles() {
        return root().resolve(PROFILES);
    }
}
