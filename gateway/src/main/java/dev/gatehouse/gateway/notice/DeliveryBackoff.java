package dev.gatehouse.gateway.notice;

import dev.gatehouse.gateway.notice.NoticeStore.Group;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long an agent + project whose delivery failed waits before the sweep tries it again: 2 s, doubling per failure
 * after a wait has passed, up to {@code gatehouse.notices.max-backoff}, measured on the injected clock; a delivery
 * that got through clears it.
 * Held in memory by the holder of the streams: a replica that takes them over starts without waits.
 */
final class DeliveryBackoff {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryBackoff.class);
    private static final Duration FIRST = Duration.ofSeconds(2);

    private record Wait(Duration delay, Instant until) {
    }

    private final Duration max;
    private final Clock clock;
    private final Map<Group, Wait> waits = new HashMap<>();

    DeliveryBackoff(Duration max, Clock clock) {
        this.max = max;
        this.clock = clock;
    }

    /**
     * The group failed ({@code why}, for the log): it waits twice as long as after its previous failure. While it
     * still waits, the wait stands: a turn-ended event or a page tries the group without looking at its wait, and
     * its failure then is the one already waited for (doubling on each such event took a 2 s wait to the cap within
     * a few events, and delivery after a takeover from 2–12 s to 75 s).
     */
    void retryLater(Group group, String why) {
        Wait previous = waits.get(group);
        if (previous != null && clock.instant().isBefore(previous.until())) {
            return;
        }
        Duration wait = previous == null ? FIRST : previous.delay().multipliedBy(2);
        if (wait.compareTo(max) > 0) {
            wait = max;
        }
        waits.put(group, new Wait(wait, clock.instant().plus(wait)));
        LOG.info("notices of agent {} project {} wait {} ms: {}", group.agentId(), group.projectId(), wait.toMillis(),
                why);
    }

    /** True when the group has no wait, or its wait has passed. */
    boolean due(Group group) {
        Wait wait = waits.get(group);
        return wait == null || !clock.instant().isBefore(wait.until());
    }

    /** The group's delivery got through, or it has nothing open: no wait. */
    void clear(Group group) {
        waits.remove(group);
    }
}
