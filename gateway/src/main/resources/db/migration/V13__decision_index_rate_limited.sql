-- A call refused by the PEP's quota enforcement (docs/domain.md §10) is searched as its own outcome, rate_limited,
-- not as allowed (gateway decisions.Outcome). Rows indexed before this keep the outcome they were given.
ALTER TABLE decision_index DROP CONSTRAINT decision_index_outcome_check;
ALTER TABLE decision_index ADD CONSTRAINT decision_index_outcome_check
    CHECK (outcome IN ('allowed', 'denied', 'unavailable', 'rate_limited'));
