-- Outside-agent registrations (PUT /admin/outside-agents): token issuer + subject -> the logical agent it acts as,
-- in the outside-agent namespace (oa-...), and the one thread agent whose wiki subtree it may share, if any
-- (a fact the policy sees; docs/domain.md §1). The agent's settings are in agent_settings under its logical id.
CREATE TABLE outside_agent (
    issuer              TEXT NOT NULL,
    subject             TEXT NOT NULL,
    logical_agent_id    TEXT NOT NULL,
    shares_thread_agent TEXT,
    updated_at          TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (issuer, subject)
);
