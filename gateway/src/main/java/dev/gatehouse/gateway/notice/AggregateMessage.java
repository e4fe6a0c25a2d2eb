package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.project.WorkRun;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

/**
 * The one message a thread gets after a turn (docs/domain.md §9): built only from the Project Service's authoritative
 * answer for the agent's assigned work, never from notice contents, and identified by a deterministic aggregate id
 * so a send whose outcome is unknown can be looked for in the thread.
 */
final class AggregateMessage {

    private AggregateMessage() {
    }

    /** {@code agg-} + the first 24 hex digits of SHA-256 over the group and its sorted notice ids. */
    static String id(NoticeStore.Group group, List<String> noticeIds) {
        StringBuilder text = new StringBuilder(group.agentId()).append('\n').append(group.projectId());
        new TreeSet<>(noticeIds).forEach(id -> text.append('\n').append(id));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return "agg-" + HexFormat.of().formatHex(digest).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /** The message text for the agent's open runs in {@code projectId} (runs with another status are left out). */
    static String text(String projectId, List<WorkRun> runs) {
        List<WorkRun> open = runs.stream().filter(run -> run.status().equals("open")).toList();
        StringBuilder text = new StringBuilder("Project Work update for project ").append(projectId).append(": ");
        if (open.isEmpty()) {
            text.append("no open Work is assigned to you right now.");
        } else {
            text.append(open.size()).append(open.size() == 1 ? " open Work run" : " open Work runs")
                    .append(" assigned to you:");
            for (WorkRun run : open) {
                text.append("\n- ").append(run.runId()).append(": ").append(run.title()).append(" (")
                        .append(run.runRevision()).append(", ").append(run.assignmentRevision()).append(')');
            }
        }
        return text.append("\nUse project_work_list and project_work_get for details, project_work_submit to submit.")
                .toString();
    }
}
