package dev.gatehouse.facade.host;

import java.util.List;

/** Thread events after a cursor, oldest first, and the cursor to resume from. */
public record ThreadEventPage(List<ThreadEvent> events, String cursor) {
    public ThreadEventPage {
        events = List.copyOf(events);
    }
}
