-- Change notifications for the replicas' lookup caches (docs/design.md, "Shared state"): every committed change of a
-- row that a call reads (a session, an agent's settings, an outside-agent registration) is announced on the channel
-- gatehouse_store_change, delivered by PostgreSQL at commit to every replica that listens. The payload names the
-- table and the cache key of the row ('agent_session:<token_sha256>', 'agent_settings:<agent_id>'); a table name
-- alone means "forget every entry of that table" (outside_agent changes, TRUNCATE, keys too long for a payload).
-- NOTIFY is transactional: nothing is announced for a change that is rolled back.

-- Announces one changed key of a table: '<table>:<key>', or '<table>' alone when the key is too long for a payload.
CREATE FUNCTION gatehouse_notify_key(table_name TEXT, cache_key TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF octet_length(cache_key) > 1000 THEN
        PERFORM pg_notify('gatehouse_store_change', table_name);
    ELSE
        PERFORM pg_notify('gatehouse_store_change', table_name || ':' || cache_key);
    END IF;
END;
$$;

-- Sessions are cached by token hash; an UPDATE that changed it announces the old hash as well.
CREATE FUNCTION gatehouse_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM gatehouse_notify_key('agent_session', OLD.token_sha256);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM gatehouse_notify_key('agent_session', NEW.token_sha256);
    END IF;
    RETURN NULL;
END;
$$;

-- Settings are cached by agent id.
CREATE FUNCTION gatehouse_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM gatehouse_notify_key('agent_settings', OLD.agent_id);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM gatehouse_notify_key('agent_settings', NEW.agent_id);
    END IF;
    RETURN NULL;
END;
$$;

-- Forgets the whole table (TRUNCATE; any change of outside_agent).
CREATE FUNCTION gatehouse_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('gatehouse_store_change', TG_TABLE_NAME);
    RETURN NULL;
END;
$$;

CREATE TRIGGER agent_session_changed AFTER INSERT OR UPDATE OR DELETE ON agent_session
    FOR EACH ROW EXECUTE FUNCTION gatehouse_session_changed();
CREATE TRIGGER agent_settings_changed AFTER INSERT OR UPDATE OR DELETE ON agent_settings
    FOR EACH ROW EXECUTE FUNCTION gatehouse_settings_changed();
-- Registrations are few and rarely change: any change forgets them all.
CREATE TRIGGER outside_agent_changed AFTER INSERT OR UPDATE OR DELETE ON outside_agent
    FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_table_changed();

CREATE TRIGGER agent_session_truncated AFTER TRUNCATE ON agent_session
    FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_table_changed();
CREATE TRIGGER agent_settings_truncated AFTER TRUNCATE ON agent_settings
    FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_table_changed();
CREATE TRIGGER outside_agent_truncated AFTER TRUNCATE ON outside_agent
    FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_table_changed();
