package dev.gatehouse.local.project;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything the local Project Service stores, saved as one JSON file (Jackson maps the public fields). */
public final class ProjectState {

    /** Project Service project ids that exist. */
    public List<String> projects = new ArrayList<>();
    /** Work runs by {@code projectId/runId}. */
    public Map<String, Run> runs = new LinkedHashMap<>();
    /** Operations by operation id. */
    public Map<String, Operation> operations = new LinkedHashMap<>();
    /** The number of the next operation id. */
    public long nextOperation = 1;
    /** Every Work notice emitted, in stream order (its position is {@code seq}). */
    public List<Notice> notices = new ArrayList<>();
    /** The stream position of the last notice emitted. */
    public long lastNotice;

    /** One work run assigned to one agent. */
    public static final class Run {
        public String projectId;
        public String agentId;
        public String runId;
        public String title;
        /** {@code open}, {@code submitted} or {@code closed} (a closed run rejects submits). */
        public String status;
        public long runRevision;
        public long assignmentRevision;
        public String executorRef;
        public String workspaceRef;
        public Map<String, Object> result;
    }

    /** One submit, kept with its idempotency key and request hash for replays. */
    public static final class Operation {
        public String operationId;
        public String projectId;
        public String agentId;
        public String runId;
        /** {@code pending}, {@code committed} or {@code rejected}. */
        public String status;
        public String reason;
        public String idempotencyKey;
        public String requestHash;
    }

    /**
     * One Work notice for the Project client that owns the agent (docs/domain.md §9); {@code ackState} is the
     * client's last ACK ({@code delivered}, {@code refused}, {@code stale}), null until one came.
     */
    public static final class Notice {
        public long seq;
        public String clientId;
        public String noticeId;
        public int version = 1;
        public String agentId;
        public String agentName;
        public String projectId;
        public String projectName;
        public String workId;
        public String positionId;
        public String runId;
        public String runRevision;
        public String assignmentRevision;
        public String summary;
        public String ackState;
    }
}
