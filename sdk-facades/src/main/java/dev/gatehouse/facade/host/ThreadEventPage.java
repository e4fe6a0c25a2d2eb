package dev.gatehouse.facade.host;

import java.util.List;

/**
 * Thread events after a cursor, oldest first, and the cursor to resume from.
 *
 * @param more true when later events were already there when the host answered (the page was cut at its size); false
 *             means the page brought the reader up to the feed's end as of the answer
 */
public record ThreadEventPage(List<ThreadEvent> events, String cursor, boolean more) {
    public ThreadEventPage {
        events = List.copyOf(events);
    }
}
