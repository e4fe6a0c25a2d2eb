package dev.gatehouse.gateway.audit;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;

/** Settings of the decision log, under {@code gatehouse.audit}. */
@ConfigurationProperties(DecisionLogConfiguration.PREFIX)
public class DecisionLogConfiguration {

    public static final String PREFIX = "gatehouse.audit";

    private String path = "logs/decisions.jsonl";

    /**
     * The JSON Lines file records are appended to; created with its parent directories when missing. A relative
     * path is resolved against the working directory. Default {@code logs/decisions.jsonl}.
     */
    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    /** The log file as an absolute path. */
    public Path file() {
        return Path.of(path).toAbsolutePath();
    }
}
