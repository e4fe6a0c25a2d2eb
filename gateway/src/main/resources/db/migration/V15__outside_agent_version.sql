-- An optimistic version per outside-agent registration (docs/domain.md §1), as agent_settings has per thread agent:
-- PUT /admin/outside-agents with If-Match (or a body version) and the console's registration form replace a
-- registration only while it is still at the version the writer read, so an edit from the console and one from the
-- API can no longer overwrite each other silently. The version covers the whole registration (its logical agent id,
-- shared thread agent and the settings written with it): 1 for the first write, +1 for each. A registration stored
-- before this version starts at 1; a writer that read none stored expects 0.
ALTER TABLE outside_agent ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
