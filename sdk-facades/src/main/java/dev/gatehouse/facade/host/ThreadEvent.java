package dev.gatehouse.facade.host;

/**
 * One host thread event.
 *
 * @param cursor   the stream position; resuming after it skips it
 * @param threadId the thread
 * @param type     {@code run_started} or {@code run_ended}
 * @param runId    the run
 */
public record ThreadEvent(String cursor, String threadId, String type, String runId) {

    /** True for the end of a turn. */
    public boolean runEnded() {
        return type.equals("run_ended");
    }
}
