-- The search index of decisions (docs/design.md, "Finding decisions"; gateway decisions.DecisionIndex): every
-- replica feeds its decision log's records here from the log files, off the request path, so any replica's console
-- and admin API find any replica's decisions. The decision log stays the record of truth; this is a bounded copy
-- (gatehouse.decision-index.retention and max-records; each replica's sweep deletes what is past them).

-- One row per decision: what a search filters on. Small, so a bounded scan of a range reads few pages. seq orders
-- insertion (the sweep's max-records bound); decided_at, decision_id order a search, newest first.
CREATE TABLE decision_index (
    seq          BIGSERIAL PRIMARY KEY,
    decision_id  UUID NOT NULL UNIQUE,
    decided_at   TIMESTAMPTZ NOT NULL,
    replica      TEXT NOT NULL,
    method       TEXT NOT NULL,
    tool         TEXT,
    caller_kind  TEXT NOT NULL,
    agent_id     TEXT NOT NULL,
    thread_id    TEXT,
    outcome      TEXT NOT NULL CHECK (outcome IN ('allowed', 'denied', 'unavailable')),
    reasons      TEXT[] NOT NULL,
    revision     TEXT,
    key_id       TEXT
);
CREATE INDEX decision_index_time ON decision_index (decided_at, decision_id);
CREATE INDEX decision_index_agent ON decision_index (agent_id, decided_at, decision_id);

-- The record as the decision log wrote it (schemas/decision-log-record.json, stand-ins as logged), and the values
-- file lines its stand-ins name (a JSON array; null when none or not kept: values_missing), so a replay on any
-- replica puts them back. Read for one decision or a page at a time, never scanned.
CREATE TABLE decision_record (
    seq            BIGINT PRIMARY KEY REFERENCES decision_index (seq) ON DELETE CASCADE,
    record         TEXT NOT NULL,
    stored_values  TEXT,
    values_missing BOOLEAN NOT NULL
);
