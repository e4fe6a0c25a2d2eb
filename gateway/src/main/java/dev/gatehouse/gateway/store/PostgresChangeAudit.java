package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.admin.audit.Actor;
import dev.gatehouse.gateway.admin.audit.AuditEntry;
import dev.gatehouse.gateway.admin.audit.AuditQuery;
import dev.gatehouse.gateway.admin.audit.Change;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * {@link ChangeAudit} on the {@code audit_entry} table (migration V7): the change's own statements and the entry's
 * insert run in one transaction ({@link Database#inTransaction}), so both commit or neither does.
 */
@Singleton
public class PostgresChangeAudit implements ChangeAudit {

    private static final String COLUMNS = "id, at, actor_kind, actor, action, target, agent_id, before_version,"
            + " after_version, detail";

    private final Database database;

    public PostgresChangeAudit(Database database) {
        this.database = database;
    }

    @Override
    public <T> T write(Actor actor, Supplier<Written<T>> write) {
        return database.inTransaction(() -> {
            Written<T> written = write.get();
            written.change().ifPresent(change -> insert(actor, change));
            return written.result();
        });
    }

    private void insert(Actor actor, Change change) {
        database.update("INSERT INTO audit_entry (actor_kind, actor, action, target, agent_id, before_version,"
                + " after_version, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", statement -> {
                    statement.setString(1, actor.kind().wire());
                    statement.setString(2, actor.subject());
                    statement.setString(3, change.action());
                    statement.setString(4, change.target());
                    statement.setString(5, change.agentId().orElse(null));
                    setVersion(statement, 6, change.beforeVersion());
                    setVersion(statement, 7, change.afterVersion());
                    statement.setString(8, change.detail());
                });
    }

    @Override
    public List<AuditEntry> entries(AuditQuery query) {
        List<Object> values = new ArrayList<>();
        StringBuilder where = new StringBuilder(" WHERE true");
        query.subject().ifPresent(subject -> {
            where.append(" AND actor = ?");
            values.add(subject);
        });
        query.agentId().ifPresent(agent -> {
            where.append(" AND agent_id = ?");
            values.add(agent);
        });
        query.beforeId().ifPresent(id -> {
            where.append(" AND id < ?");
            values.add(id);
        });
        return database.query("SELECT " + COLUMNS + " FROM audit_entry" + where + " ORDER BY id DESC LIMIT "
                + query.limit(), statement -> {
                    for (int i = 0; i < values.size(); i++) {
                        statement.setObject(i + 1, values.get(i));
                    }
                }, PostgresChangeAudit::entry);
    }

    private static void setVersion(java.sql.PreparedStatement statement, int index, OptionalLong version)
            throws SQLException {
        if (version.isPresent()) {
            statement.setLong(index, version.getAsLong());
        } else {
            statement.setNull(index, Types.BIGINT);
        }
    }

    private static AuditEntry entry(ResultSet row) throws SQLException {
        return new AuditEntry(row.getLong("id"), row.getTimestamp("at").toInstant(),
                new Actor(Actor.Kind.ofWire(row.getString("actor_kind")), row.getString("actor")),
                new Change(row.getString("action"), row.getString("target"),
                        Optional.ofNullable(row.getString("agent_id")), version(row, "before_version"),
                        version(row, "after_version"), row.getString("detail")));
    }

    private static OptionalLong version(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
