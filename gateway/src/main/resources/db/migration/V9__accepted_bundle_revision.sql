-- Rollback protection for policy bundles (docs/design.md, "Bundles and revisions"): the signing time (iat, whole
-- seconds since the epoch) of the newest revision any replica ever accepted. One row; it only ever moves forward
-- (the store's UPSERT keeps the larger value), so a restart or another replica refuses anything signed before it.
CREATE TABLE accepted_bundle_revision (
    id          SMALLINT    PRIMARY KEY CHECK (id = 1),
    signed_at   BIGINT      NOT NULL,
    revision    TEXT        NOT NULL,
    accepted_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
