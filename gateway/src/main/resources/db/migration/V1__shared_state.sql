-- Shared state of every gateway replica (docs/design.md, "Shared state"). Written by one statement per change, so a
-- failure leaves nothing half-written. Tokens are stored only as their SHA-256.

-- Thread callers' sessions (POST /admin/sessions), looked up by the hash of the presented token on every call.
CREATE TABLE agent_session (
    session_id           TEXT PRIMARY KEY,
    token_sha256         TEXT NOT NULL UNIQUE,
    environment_id       TEXT NOT NULL,
    thread_id            TEXT NOT NULL,
    provider_session_id  TEXT NOT NULL,
    provider_instance_id TEXT NOT NULL,
    logical_agent_id     TEXT NOT NULL,
    t3_project_id        TEXT NOT NULL,
    agent_name           TEXT,
    provider             TEXT NOT NULL,
    created_at           TIMESTAMPTZ NOT NULL,
    expires_at           TIMESTAMPTZ NOT NULL,
    revoked_at           TIMESTAMPTZ
);

-- Agents' settings and project bindings (PUT /admin/agents/{id}), read on every call; version for optimistic
-- concurrency (If-Match).
CREATE TABLE agent_settings (
    agent_id                   TEXT PRIMARY KEY,
    browser_access             BOOLEAN NOT NULL,
    project_enabled            BOOLEAN NOT NULL,
    project_service_project_id TEXT,
    wiki_read                  BOOLEAN NOT NULL,
    wiki_write                 BOOLEAN NOT NULL,
    version                    BIGINT NOT NULL,
    updated_at                 TIMESTAMPTZ NOT NULL
);

-- Handshake-era Mcp-Session-Id → the caller that initialized it, on the replica whose SDK holds the session.
CREATE TABLE handshake_session (
    mcp_session_id TEXT PRIMARY KEY,
    owner          TEXT NOT NULL,
    replica_id     TEXT NOT NULL,
    last_used      TIMESTAMPTZ NOT NULL
);
CREATE INDEX handshake_session_owner ON handshake_session (owner);
CREATE INDEX handshake_session_last_used ON handshake_session (last_used);
