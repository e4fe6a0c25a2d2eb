package dev.gatehouse.facade.host;

/** A thread the host started: its id, its first run and the modes it runs at. */
public record LaunchedThread(String threadId, String runId, ThreadModes modes) {
}
