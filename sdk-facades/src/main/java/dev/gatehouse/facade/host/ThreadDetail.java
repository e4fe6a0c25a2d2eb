package dev.gatehouse.facade.host;

import java.util.List;

/**
 * One thread read in full: its summary and its latest messages (oldest first, as many as the host returns).
 */
public record ThreadDetail(ThreadSummary summary, List<ThreadMessage> messages) {
    public ThreadDetail {
        messages = List.copyOf(messages);
    }
}
