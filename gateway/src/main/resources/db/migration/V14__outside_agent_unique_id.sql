-- One registration per outside agent (docs/domain.md §1: a registration carries its own settings). Two registrations
-- under one logical agent id shared one row of agent_settings, so registering the second silently replaced the
-- first's settings and both callers acted as one agent. The unique index below makes the store refuse a second
-- registration of an id, also when two admin writes race (the admin API answers 400 invalid_fields naming
-- logicalAgentId).
--
-- A database written before this version may hold such duplicates already, and the index could not be built over
-- them; so, of each set, the registration written last (updated_at, then issuer and subject for a tie) is kept and
-- the others are removed. The one kept is the one whose PUT wrote the settings stored under the id now, so it and its
-- settings agree. The removed pairs fall back to their derived ids, whose settings the next statement clears: they
-- lose what they held through another pair's registration and get nothing in its place (fail closed).
DELETE FROM outside_agent older USING outside_agent newer
WHERE older.logical_agent_id = newer.logical_agent_id
  AND (newer.updated_at, newer.issuer, newer.subject) > (older.updated_at, older.issuer, older.subject);

-- Removing a registration now removes its agent's settings, and re-registering a pair under another id removes the
-- old id's. Before this version both were left behind, and a caller whose registration was removed acted as its
-- derived id with whatever settings were stored under it, which the operator could no longer see or change
-- (PUT /admin/agents refuses outside-agent ids). Settings of an outside-agent id that no registration names are
-- only such leftovers (only a registration writes them), so they go, and such a caller holds no setting.
DELETE FROM agent_settings s
WHERE s.agent_id LIKE 'oa-%'
  AND NOT EXISTS (SELECT 1 FROM outside_agent o WHERE o.logical_agent_id = s.agent_id);

CREATE UNIQUE INDEX outside_agent_logical_agent_id ON outside_agent (logical_agent_id);
