-- Project Work notice delivery (docs/domain.md §9). Every write is one statement; the state row of a notice is
-- committed before its ACK is sent, so a restart loses nothing and delivers nothing twice.

-- One row per notice id ever received (dedupe survives restarts). fence is the number of the notice's assignment
-- revision (position:N); a notice whose fence is below one already received for the same agent, project and run is
-- stale. state: pending (received, not yet delivered), coalesced (allowed while the thread was busy), delivered
-- (in aggregate aggregate_id), refused (the policy said no: reasons, decision_id), stale. acked: the ACK for the
-- final state reached the Project Service.
CREATE TABLE notice_receipt (
    notice_id    TEXT PRIMARY KEY,
    agent_id     TEXT NOT NULL,
    project_id   TEXT NOT NULL,
    run_id       TEXT NOT NULL,
    fence        BIGINT NOT NULL,
    version      INTEGER NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('pending', 'coalesced', 'delivered', 'refused', 'stale')),
    reasons      TEXT,
    decision_id  TEXT,
    aggregate_id TEXT,
    acked        BOOLEAN NOT NULL DEFAULT false,
    received_at  TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX notice_receipt_open ON notice_receipt (agent_id, project_id) WHERE state IN ('pending', 'coalesced');
CREATE INDEX notice_receipt_fence ON notice_receipt (agent_id, project_id, run_id, fence);
CREATE INDEX notice_receipt_unacked ON notice_receipt (notice_id)
    WHERE NOT acked AND state IN ('delivered', 'refused', 'stale');

-- The one current thread of an agent for a Project Service project.
CREATE TABLE notice_thread (
    agent_id   TEXT NOT NULL,
    project_id TEXT NOT NULL,
    thread_id  TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (agent_id, project_id)
);

-- One aggregate message: sending until the host confirmed it (or reading the thread found it), then sent.
-- thread_id is null while the aggregate is the first message of a thread being created.
CREATE TABLE notice_aggregate (
    aggregate_id TEXT PRIMARY KEY,
    agent_id     TEXT NOT NULL,
    project_id   TEXT NOT NULL,
    thread_id    TEXT,
    state        TEXT NOT NULL CHECK (state IN ('sending', 'sent')),
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);

-- Where each consumed stream resumes (the Project notice stream, the host's thread events).
CREATE TABLE notice_cursor (
    stream     TEXT PRIMARY KEY,
    position   TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- An agent's notice delivery profile (PUT /admin/notices/agents/{agentId}): the Project client it is bound to, the
-- modes a thread created for its notices gets, and its limit (the policy caps the modes by it).
CREATE TABLE notice_agent (
    agent_id               TEXT PRIMARY KEY,
    project_client_id      TEXT NOT NULL,
    runtime_mode           TEXT,
    interaction_mode       TEXT,
    limit_runtime_mode     TEXT NOT NULL,
    limit_interaction_mode TEXT NOT NULL,
    updated_at             TIMESTAMPTZ NOT NULL
);
