package dev.gatehouse.gateway.notice;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

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
 *   <li>{@code max-backoff}: the longest wait before retrying an agent whose delivery failed (default 60 s);</li>
 *   <li>{@code replica-name} ({@code GATEHOUSE_REPLICA_NAME}): this replica's name where the holder of the notice
 *       streams is shown ({@code /health}, {@code GET /admin/notices}); 1 to 40 of {@code A-Z a-z 0-9 . _ : -};
 *       default {@code <host name>:<process id>};</li>
 *   <li>{@code lock-interval}: how often a replica that does not hold the streams tries to take them, and how often
 *       the holder confirms its hold (default 1 s; a dead holder's streams are taken over within about that).</li>
 * </ul>
 */
@ConfigurationProperties("gatehouse.notices")
public class NoticeProperties {

    /** What a replica name may be: it is shown in PostgreSQL's {@code application_name}, printable ASCII only. */
    private static final Pattern REPLICA_NAME = Pattern.compile("[A-Za-z0-9._:-]{1,40}");

    private boolean enabled;
    private String clientId;
    private String hostProject;
    private Duration pollWait = Duration.ofSeconds(5);
    private Duration sweepInterval = Duration.ofSeconds(15);
    private Duration maxBackoff = Duration.ofSeconds(60);
    private String replicaName;
    private Duration lockInterval = Duration.ofSeconds(1);

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

    /** This replica's name (configured, else {@code <host name>:<process id>}, cut to the allowed characters). */
    public synchronized String getReplicaName() {
        if (replicaName != null) {
            return replicaName;
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "replica";
        }
        String name = host.replaceAll("[^A-Za-z0-9._-]", "-");
        String pid = ":" + ProcessHandle.current().pid();
        replicaName = name.substring(0, Math.min(name.length(), 40 - pid.length())) + pid;
        return replicaName;
    }

    /** @throws IllegalArgumentException when not 1 to 40 of {@code A-Z a-z 0-9 . _ : -} */
    public synchronized void setReplicaName(String replicaName) {
        if (replicaName == null || replicaName.isBlank()) {
            this.replicaName = null;
            return;
        }
        if (!REPLICA_NAME.matcher(replicaName).matches()) {
            throw new IllegalArgumentException("gatehouse.notices.replica-name must be 1 to 40 of A-Z a-z 0-9 . _ : -");
        }
        this.replicaName = replicaName;
    }

    public Duration getLockInterval() {
        return lockInterval;
    }

    public void setLockInterval(Duration lockInterval) {
        this.lockInterval = lockInterval;
    }
}
