-- Service credentials entered by an operator (console or admin API), for every replica: AES-256-GCM ciphertext
-- under the key the operator provides as a file (gatehouse.credentials.key-file); the key never reaches the
-- database. key_id names the key (first 8 bytes of its SHA-256, hex), so a ciphertext sealed under another key is
-- reported instead of tried. The associated data of the seal is the service name, so a row moved to another service
-- does not open. A service without a row uses its configured credential (credential-file or value).
CREATE TABLE service_credential (
    service    TEXT PRIMARY KEY,
    key_id     TEXT NOT NULL,
    nonce      BYTEA NOT NULL,
    ciphertext BYTEA NOT NULL,
    version    BIGINT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- Replicas cache the row per service; every change is announced as for the other cached tables (migration V4).
CREATE FUNCTION gatehouse_credential_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM gatehouse_notify_key('service_credential', OLD.service);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM gatehouse_notify_key('service_credential', NEW.service);
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER service_credential_changed AFTER INSERT OR UPDATE OR DELETE ON service_credential
    FOR EACH ROW EXECUTE FUNCTION gatehouse_credential_changed();
CREATE TRIGGER service_credential_truncated AFTER TRUNCATE ON service_credential
    FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_table_changed();
