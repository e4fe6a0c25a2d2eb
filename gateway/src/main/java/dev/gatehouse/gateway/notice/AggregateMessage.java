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

    /** The longest value the message quotes, in code points. */
    static final int MAX_CODE_POINTS = 200;

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
        StringBuilder text = new StringBuilder("Project Work update for project ").append(line(projectId)).append(": ");
        if (open.isEmpty()) {
            text.append("no open Work is assigned to you right now.");
        } else {
            text.append(open.size()).append(open.size() == 1 ? " open Work run" : " open Work runs")
                    .append(" assigned to you:");
            for (WorkRun run : open) {
                text.append("\n- ").append(line(run.runId())).append(": ").append(line(run.title())).append(" (")
                        .append(line(run.runRevision())).append(", ").append(line(run.assignmentRevision()))
                        .append(')');
            }
        }
        return text.append("\nUse project_work_list and project_work_get for details, project_work_submit to submit.")
                .toString();
    }

    /**
     * {@code value} as one line of plain text, at most {@value #MAX_CODE_POINTS} code points: line and paragraph
     * breaks and other controls become spaces, format characters (bidi controls, zero-width characters) and unpaired
     * surrogates go, runs of white space become one space, and a longer value is cut between characters with
     * {@code …}. A title is the Project Service's free text, and the message goes into an agent's thread: a line
     * break in it could forge a run line of its own or an instruction below the list (a new user's trial).
     */
    static String line(String value) {
        StringBuilder line = new StringBuilder();
        int kept = 0;
        boolean space = false;
        for (int i = 0; i < value.length() && kept <= MAX_CODE_POINTS; ) {
            int c = value.codePointAt(i);
            i += Character.charCount(c);
            int type = Character.getType(c);
            if (type == Character.FORMAT || type == Character.SURROGATE) {
                continue;
            }
            if (type == Character.CONTROL || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || Character.isWhitespace(c)
                    || type == Character.SPACE_SEPARATOR) {
                space = line.length() > 0;
                continue;
            }
            if (space) {
                line.append(' ');
                kept++;
                space = false;
            }
            line.appendCodePoint(c);
            kept++;
        }
        if (kept <= MAX_CODE_POINTS) {
            return line.toString();
        }
        return line.substring(0, line.offsetByCodePoints(0, MAX_CODE_POINTS - 1)) + "…";
    }
}
