package dev.gatehouse.gateway.notice;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code gatehouse.notices}: Project Work notice delivery (docs/domain.md §9).
 * <ul>
 *   <li>{@code enabled}: consume the notice stream and the host's thread events (default false);</li>
 *   <li>{@code client-id}: this environment's Project client, the one the Project Service sends notices to;</li>
 *   <li>{@code host-project}: the T3 project threads created for notices start in;</li>
 *   <li>{@code poll-wait}: how long one long poll of either stream waits for news (default 5 s; keep it under the
 *       services' deadline);</li>
 *   <li>{@code sweep-interval}: how often open notices are looked at without an event, the fallback for a missed
 *       run-ended event and the retry of a host or Project Service that was down (default 15 s);</li>
 *   <li>{@code max-backoff}: the longest wait before retrying an agent whose delivery failed (default 60 s).</li>
 * </ul>
 */
@ConfigurationProperties("gatehouse.notices")
public class NoticeProperties {

    private boolean enabled;
    private String clientId;
    private String hostProject;
    private Duration pollWait = Duration.ofSeconds(5);
    private Duration sweepInterval = Duration.ofSeconds(15);
    private Duration maxBackoff = Duration.ofSeconds(60);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Optional<String> getClientId() {
        return Optional.ofNullable(clientId).filter(id -> !id.isBlank());
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public Optional<String> getHostProject() {
        return Optional.ofNullable(hostProject).filter(id -> !id.isBlank());
    }

    public void setHostProject(String hostProject) {
        this.hostProject = hostProject;
    }

    public Duration getPollWait() {
        return pollWait;
    }

    public void setPollWait(Duration pollWait) {
        this.pollWait = pollWait;
    }

    public Duration getSweepInterval() {
        return sweepInterval;
    }

    public void setSweepInterval(Duration sweepInterval) {
        this.sweepInterval = sweepInterval;
    }

    public Duration getMaxBackoff() {
        return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
        this.maxBackoff = maxBackoff;
    }
}
