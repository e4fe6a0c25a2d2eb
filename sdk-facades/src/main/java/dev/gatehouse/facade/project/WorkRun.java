package dev.gatehouse.facade.project;

/**
 * One work run assigned to the agent, re-projected without service-side identity ({@code projectId},
 * {@code executorRef}, {@code workspaceRef}).
 *
 * @param runId              the run
 * @param title              display title
 * @param status             service status, e.g. {@code open}, {@code submitted}
 * @param runRevision        current run revision, {@code run:N}
 * @param assignmentRevision current assignment revision, {@code position:N}
 */
public record WorkRun(String runId, String title, String status, String runRevision, String assignmentRevision) {
}
