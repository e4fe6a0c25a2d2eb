package dev.gatehouse.local.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything the local host stores, saved as one JSON file (Jackson maps the public fields). */
public final class HostState {

    public Map<String, Thread> threads = new LinkedHashMap<>();
    public Map<String, Project> projects = new LinkedHashMap<>();
    public Preferences preferences = new Preferences();
    /** The number of the next generated id (threads, runs, messages, delegations). */
    public long nextId = 1;
    /**
     * Names this history of thread events; a new one when the log starts over (a new data directory, or a state
     * saved before histories existed), so a cursor of another history is known to be gone.
     */
    public String history;
    /** The latest thread events, oldest first, at most {@code HostStore}'s retention (position {@code seq}). */
    public List<Event> events = new ArrayList<>();
    /** The position of the last event of this history; positions count events one by one from 1. */
    public long lastEvent;
    /**
     * The answers to keyed mutations by {@code Idempotency-Key}, oldest first, at most
     * {@link HostStore#MAX_REPLIES}: saved with the change they answer, in the same file.
     */
    public Map<String, Reply> replies = new LinkedHashMap<>();

    /** One thread with its modes, live run, messages, worktree and preview. */
    public static final class Thread {
        public String threadId;
        public String title;
        public boolean archived;
        public String runtimeMode;
        public String interactionMode;
        public String activeRunId;
        public String providerInstanceId;
        public String projectId;
        /** The logical agent the thread runs as. */
        public String agentId;
        /** The Project Service project the thread works for (threads created for Work notices), or null. */
        public String workProjectId;
        public List<Message> messages = new ArrayList<>();
        public Worktree worktree = new Worktree();
        public Preview preview = new Preview();
        public List<Delegation> delegations = new ArrayList<>();
    }

    public static final class Message {
        public String messageId;
        public String role;
        public String text;
        public String sentAt;
        /** The notice aggregate this message carries (Work notice delivery), or null. */
        public String aggregateId;
    }

    /**
     * One change of a thread's shell: {@code run_started}, {@code run_ended}, {@code modes_changed},
     * {@code archived}, {@code unarchived} or {@code provider_instance_changed}, with the shell as it was right after
     * the change.
     */
    public static final class Event {
        public long seq;
        public String threadId;
        public String type;
        /** The run that started or ended; null for the other types. */
        public String runId;
        /** When the change was made (RFC 3339). */
        public String at;
        public Shell thread;
    }

    /** What of a thread its events carry: the facts the gateway's policy reads (docs/domain.md §1). */
    public static final class Shell {
        public boolean archived;
        public String runtimeMode;
        public String interactionMode;
        public String activeRunId;
        public String providerInstanceId;
        public String projectId;

        static Shell of(Thread thread) {
            Shell shell = new Shell();
            shell.archived = thread.archived;
            shell.runtimeMode = thread.runtimeMode;
            shell.interactionMode = thread.interactionMode;
            shell.activeRunId = thread.activeRunId;
            shell.providerInstanceId = thread.providerInstanceId;
            shell.projectId = thread.projectId;
            return shell;
        }
    }

    /** The answer a keyed mutation got, with the fingerprint of its request ({@code KeyedRequest}). */
    public static final class Reply {
        public String fingerprint;
        public int status;
        public Map<String, Object> body;
    }

    public static final class Worktree {
        public String branch = "main";
        public boolean clean = true;
        public List<String> changedFiles = new ArrayList<>();
        public int ahead;
        public int behind;
        public String workspaceRef;
    }

    public static final class Preview {
        public boolean open;
        public String url;
    }

    public static final class Delegation {
        public String delegationId;
        public String task;
        public String runtimeMode;
        public String interactionMode;
        public String status;
        public String requestedBy;
    }

    public static final class Project {
        public String projectId;
        public String name;
        public String defaultBranch;
        public String workspaceRef;
    }

    public static final class Preferences {
        public String defaultRuntimeMode;
        public String defaultInteractionMode;
        public Integer autoArchiveDays;
    }
}
