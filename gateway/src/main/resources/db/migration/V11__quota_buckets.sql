-- Quota buckets shared by every replica (docs/domain.md §10; gateway quota package): one row per bucket and budget,
-- its state Bucket4j's serialised token bucket, read and written under SELECT ... FOR UPDATE so two replicas never
-- take the same token. expires_at (epoch ms) is when a bucket left alone would be full again; such rows are deleted.
CREATE TABLE quota_bucket (
    id         TEXT   PRIMARY KEY,
    state      BYTEA,
    expires_at BIGINT
);

CREATE INDEX quota_bucket_expires_at ON quota_bucket (expires_at);
