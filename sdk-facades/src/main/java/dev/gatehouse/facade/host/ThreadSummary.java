package dev.gatehouse.facade.host;

import java.util.Optional;

/**
 * One thread in a listing.
 *
 * @param threadId        the thread
 * @param title           display title
 * @param archived        whether archived
 * @param modes           current modes
 * @param running         whether a run is active
 * @param t3ProjectId     the T3 project (business data), empty when none
 */
public record ThreadSummary(String threadId, String title, boolean archived, ThreadModes modes, boolean running,
        Optional<String> t3ProjectId) {
}
