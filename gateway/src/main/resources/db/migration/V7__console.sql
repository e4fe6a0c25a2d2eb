-- The operator console and the audit of admin changes (README "Console"; docs/design.md "The console").

-- One row per change made through the admin services (the console and the admin API alike), written in the same
-- transaction as the change itself, so there is no change without its entry. Never holds a secret: a credential
-- change names the service, not the value. actor_kind: operator (actor = the operator's OIDC subject) or admin_api
-- (actor = 'admin-credential').
CREATE TABLE audit_entry (
    id             BIGSERIAL PRIMARY KEY,
    at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    actor_kind     TEXT NOT NULL CHECK (actor_kind IN ('operator', 'admin_api')),
    actor          TEXT NOT NULL,
    action         TEXT NOT NULL,
    target         TEXT NOT NULL,
    agent_id       TEXT,
    before_version BIGINT,
    after_version  BIGINT,
    detail         TEXT NOT NULL
);
CREATE INDEX audit_entry_actor ON audit_entry (actor, id DESC);
CREATE INDEX audit_entry_agent ON audit_entry (agent_id, id DESC);

-- Operators signed in to the console. The cookie holds a random id; only its SHA-256 is stored. A session ends at
-- sign-out (ended_at), after idle_timeout without a request, or at expires_at, compared with the database's clock.
-- csrf_token is the synchronizer token every form of the session must send back.
CREATE TABLE console_session (
    id_sha256    TEXT PRIMARY KEY,
    subject      TEXT NOT NULL,
    issuer       TEXT NOT NULL,
    display_name TEXT NOT NULL,
    csrf_token   TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    last_seen_at TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL,
    ended_at     TIMESTAMPTZ
);
CREATE INDEX console_session_ended ON console_session (coalesce(ended_at, expires_at));
