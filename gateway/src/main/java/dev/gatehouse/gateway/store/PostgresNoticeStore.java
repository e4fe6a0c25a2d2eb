package dev.gatehouse.gateway.store;

import dev.gatehouse.facade.project.WorkNotice;
import dev.gatehouse.gateway.notice.DeliveryProfile;
import dev.gatehouse.gateway.notice.NoticeState;
import dev.gatehouse.gateway.notice.NoticeStore;
import jakarta.inject.Singleton;
import dev.gatehouse.gateway.notice.NoticeQuery;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link NoticeStore} on the tables of migration V3 ({@code notice_receipt}, {@code notice_thread},
 * {@code notice_aggregate}, {@code notice_cursor}, {@code notice_agent}). Each write is one statement; the writes that
 * touch two tables (start an aggregate, mark it sent, release it) are one statement with data-modifying CTEs, so
 * they happen entirely or not at all.
 */
@Singleton
public class PostgresNoticeStore implements NoticeStore {

    private static final String RECEIPT = "notice_id, agent_id, project_id, run_id, fence, version, state,"
            + " aggregate_id, acked";

    /** An optional agent and an optional project, each matched exactly ({@link #bindGroup}). */
    private static final String GROUP_FILTER = "(CAST(? AS text) IS NULL OR agent_id = ?)"
            + " AND (CAST(? AS text) IS NULL OR project_id = ?)";

    private final Database database;

    public PostgresNoticeStore(Database database) {
        this.database = database;
    }

    @Override
    public Received receive(WorkNotice notice, long fence) {
        Optional<Receipt> inserted = database.one("INSERT INTO notice_receipt (notice_id, agent_id, project_id,"
                + " run_id, fence, version, state, received_at, updated_at)"
                + " SELECT ?, ?, ?, ?, ?, ?, CASE WHEN EXISTS (SELECT 1 FROM notice_receipt r WHERE r.agent_id = ?"
                + " AND r.project_id = ? AND r.run_id = ? AND r.fence > ?) THEN 'stale' ELSE 'pending' END, now(), now()"
                + " ON CONFLICT (notice_id) DO NOTHING RETURNING " + RECEIPT, statement -> {
                    statement.setString(1, notice.noticeId());
                    statement.setString(2, notice.agentId());
                    statement.setString(3, notice.projectId());
                    statement.setString(4, notice.runId());
                    statement.setLong(5, fence);
                    statement.setInt(6, notice.version());
                    statement.setString(7, notice.agentId());
                    statement.setString(8, notice.projectId());
                    statement.setString(9, notice.runId());
                    statement.setLong(10, fence);
                }, PostgresNoticeStore::receipt);
        if (inserted.isPresent()) {
            return new Received(inserted.get(), true);
        }
        return new Received(database.one("UPDATE notice_receipt SET acked = CASE WHEN state IN ('delivered',"
                + " 'refused', 'stale') THEN false ELSE acked END WHERE notice_id = ? RETURNING " + RECEIPT,
                statement -> statement.setString(1, notice.noticeId()), PostgresNoticeStore::receipt)
                .orElseThrow(() -> new StoreUnavailableException("notice " + notice.noticeId()
                        + " was neither inserted nor found", null)), false);
    }

    @Override
    public List<Receipt> open(Group group) {
        return database.query("SELECT " + RECEIPT + " FROM notice_receipt WHERE agent_id = ? AND project_id = ?"
                + " AND state IN ('pending', 'coalesced') AND aggregate_id IS NULL ORDER BY received_at, notice_id",
                statement -> {
                    statement.setString(1, group.agentId());
                    statement.setString(2, group.projectId());
                }, PostgresNoticeStore::receipt);
    }

    @Override
    public List<Group> active() {
        return database.query("SELECT agent_id, project_id FROM notice_receipt WHERE state IN ('pending', 'coalesced')"
                + " UNION SELECT agent_id, project_id FROM notice_aggregate WHERE state = 'sending'"
                + " ORDER BY 1, 2", statement -> {
                }, row -> new Group(row.getString(1), row.getString(2)));
    }

    @Override
    public void coalesce(List<String> noticeIds) {
        database.update("UPDATE notice_receipt SET state = 'coalesced', updated_at = now()"
                + " WHERE notice_id = ANY(?) AND state = 'pending'", statement -> statement.setArray(1,
                        statement.getConnection().createArrayOf("text", noticeIds.toArray())));
    }

    @Override
    public void refuse(String noticeId, List<String> reasonCodes, String decisionId) {
        database.update("UPDATE notice_receipt SET state = 'refused', reasons = ?, decision_id = ?, updated_at = now()"
                + " WHERE notice_id = ? AND state IN ('pending', 'coalesced') AND aggregate_id IS NULL", statement -> {
                    statement.setString(1, String.join(" ", reasonCodes));
                    statement.setString(2, decisionId);
                    statement.setString(3, noticeId);
                });
    }

    @Override
    public List<Receipt> unacknowledged() {
        return database.query("SELECT " + RECEIPT + " FROM notice_receipt WHERE NOT acked"
                + " AND state IN ('delivered', 'refused', 'stale') ORDER BY notice_id LIMIT 1000", statement -> {
                }, PostgresNoticeStore::receipt);
    }

    @Override
    public void acknowledged(String noticeId) {
        database.update("UPDATE notice_receipt SET acked = true, updated_at = now() WHERE notice_id = ?",
                statement -> statement.setString(1, noticeId));
    }

    @Override
    public Optional<String> thread(Group group) {
        return database.one("SELECT thread_id FROM notice_thread WHERE agent_id = ? AND project_id = ?",
                statement -> {
                    statement.setString(1, group.agentId());
                    statement.setString(2, group.projectId());
                }, row -> row.getString(1));
    }

    @Override
    public Optional<Group> groupOf(String threadId) {
        return database.one("SELECT agent_id, project_id FROM notice_thread WHERE thread_id = ? LIMIT 1",
                statement -> statement.setString(1, threadId), row -> new Group(row.getString(1), row.getString(2)));
    }

    @Override
    public void unmapThread(Group group, String threadId) {
        database.update("DELETE FROM notice_thread WHERE agent_id = ? AND project_id = ? AND thread_id = ?",
                statement -> {
                    statement.setString(1, group.agentId());
                    statement.setString(2, group.projectId());
                    statement.setString(3, threadId);
                });
    }

    @Override
    public int startAggregate(String aggregateId, Group group, Optional<String> threadId, List<String> noticeIds) {
        return database.update("WITH a AS (INSERT INTO notice_aggregate (aggregate_id, agent_id, project_id, thread_id,"
                + " state, created_at, updated_at) VALUES (?, ?, ?, ?, 'sending', now(), now()) RETURNING aggregate_id)"
                + " UPDATE notice_receipt SET aggregate_id = (SELECT aggregate_id FROM a), updated_at = now()"
                + " WHERE notice_id = ANY(?) AND state IN ('pending', 'coalesced') AND aggregate_id IS NULL",
                statement -> {
                    statement.setString(1, aggregateId);
                    statement.setString(2, group.agentId());
                    statement.setString(3, group.projectId());
                    statement.setString(4, threadId.orElse(null));
                    Array ids = statement.getConnection().createArrayOf("text", noticeIds.toArray());
                    statement.setArray(5, ids);
                });
    }

    @Override
    public List<Aggregate> sending(Group group) {
        return database.query("SELECT aggregate_id, thread_id FROM notice_aggregate WHERE agent_id = ?"
                + " AND project_id = ? AND state = 'sending' ORDER BY created_at", statement -> {
                    statement.setString(1, group.agentId());
                    statement.setString(2, group.projectId());
                }, row -> new Aggregate(row.getString(1), group, Optional.ofNullable(row.getString(2)), false));
    }

    @Override
    public void aggregateSent(String aggregateId, String threadId) {
        database.update("WITH a AS (UPDATE notice_aggregate SET state = 'sent', thread_id = ?, updated_at = now()"
                + " WHERE aggregate_id = ? RETURNING agent_id, project_id, thread_id),"
                + " m AS (INSERT INTO notice_thread (agent_id, project_id, thread_id, updated_at)"
                + " SELECT agent_id, project_id, thread_id, now() FROM a ON CONFLICT (agent_id, project_id)"
                + " DO UPDATE SET thread_id = EXCLUDED.thread_id, updated_at = now())"
                + " UPDATE notice_receipt SET state = 'delivered', updated_at = now()"
                + " WHERE aggregate_id = ? AND EXISTS (SELECT 1 FROM a)", statement -> {
                    statement.setString(1, threadId);
                    statement.setString(2, aggregateId);
                    statement.setString(3, aggregateId);
                });
    }

    @Override
    public void releaseAggregate(String aggregateId) {
        database.update("WITH d AS (DELETE FROM notice_aggregate WHERE aggregate_id = ? AND state = 'sending'"
                + " RETURNING aggregate_id) UPDATE notice_receipt SET aggregate_id = NULL, updated_at = now()"
                + " WHERE aggregate_id IN (SELECT aggregate_id FROM d)", statement -> statement.setString(1,
                        aggregateId));
    }

    @Override
    public Map<NoticeState, Long> counts() {
        Map<NoticeState, Long> counts = new EnumMap<>(NoticeState.class);
        for (NoticeState state : NoticeState.values()) {
            counts.put(state, 0L);
        }
        database.query("SELECT state, count(*) FROM notice_receipt GROUP BY state", statement -> {
        }, row -> counts.put(NoticeState.of(row.getString(1)), row.getLong(2)));
        return counts;
    }

    @Override
    public Map<NoticeState, Long> counts(NoticeQuery query) {
        Map<NoticeState, Long> counts = new EnumMap<>(NoticeState.class);
        for (NoticeState state : NoticeState.values()) {
            counts.put(state, 0L);
        }
        database.query("SELECT state, count(*) FROM notice_receipt WHERE " + GROUP_FILTER + " GROUP BY state",
                statement -> bindGroup(statement, 1, query), row -> counts.put(NoticeState.of(row.getString(1)),
                        row.getLong(2)));
        return counts;
    }

    @Override
    public List<Listed> list(NoticeQuery query) {
        return database.query("SELECT r.notice_id, r.agent_id, r.project_id, r.run_id, r.fence, r.version, r.state,"
                + " r.aggregate_id, r.acked, r.reasons, r.decision_id, a.thread_id, r.received_at, r.updated_at"
                + " FROM notice_receipt r LEFT JOIN notice_aggregate a ON a.aggregate_id = r.aggregate_id"
                + " WHERE " + GROUP_FILTER.replace("agent_id", "r.agent_id").replace("project_id", "r.project_id")
                + " AND (CAST(? AS text) IS NULL OR r.state = ?)"
                + " ORDER BY r.received_at DESC, r.notice_id LIMIT ?", statement -> {
                    int next = bindGroup(statement, 1, query);
                    String state = query.state().map(NoticeState::wire).orElse(null);
                    statement.setString(next, state);
                    statement.setString(next + 1, state);
                    statement.setInt(next + 2, query.limit());
                }, row -> new Listed(receipt(row), codes(row.getString(10)), Optional.ofNullable(row.getString(11)),
                        Optional.ofNullable(row.getString(12)), row.getTimestamp(13).toInstant(),
                        row.getTimestamp(14).toInstant()));
    }

    @Override
    public List<ThreadSends> threads(NoticeQuery query) {
        String aggregates = GROUP_FILTER.replace("agent_id", "a.agent_id").replace("project_id", "a.project_id");
        return database.query("SELECT a.agent_id, a.project_id, a.thread_id,"
                + " count(*) FILTER (WHERE a.state = 'sent'), count(*) FILTER (WHERE a.state = 'sending'),"
                + " coalesce(sum(d.n) FILTER (WHERE a.state = 'sent'), 0),"
                + " max(a.updated_at) FILTER (WHERE a.state = 'sent'), bool_or(t.thread_id IS NOT NULL)"
                + " FROM notice_aggregate a"
                + " LEFT JOIN (SELECT aggregate_id, count(*) AS n FROM notice_receipt WHERE aggregate_id IS NOT NULL"
                + " AND state = 'delivered' AND " + GROUP_FILTER + " GROUP BY aggregate_id) d"
                + " ON d.aggregate_id = a.aggregate_id"
                + " LEFT JOIN notice_thread t ON t.agent_id = a.agent_id AND t.project_id = a.project_id"
                + " AND t.thread_id = a.thread_id"
                + " WHERE " + aggregates + " GROUP BY a.agent_id, a.project_id, a.thread_id"
                + " ORDER BY max(a.updated_at) DESC, 1, 2, 3 LIMIT ?", statement -> {
                    int next = bindGroup(statement, bindGroup(statement, 1, query), query);
                    statement.setInt(next, query.limit());
                }, row -> {
                    Timestamp lastSent = row.getTimestamp(7);
                    return new ThreadSends(new Group(row.getString(1), row.getString(2)),
                            Optional.ofNullable(row.getString(3)), row.getLong(4), row.getLong(5), row.getLong(6),
                            Optional.ofNullable(lastSent).map(Timestamp::toInstant), row.getBoolean(8));
                });
    }

    /** Binds {@link #GROUP_FILTER}'s four parameters from {@code first} on; returns the next parameter's index. */
    private static int bindGroup(PreparedStatement statement, int first, NoticeQuery query) throws SQLException {
        statement.setString(first, query.agentId().orElse(null));
        statement.setString(first + 1, query.agentId().orElse(null));
        statement.setString(first + 2, query.project().orElse(null));
        statement.setString(first + 3, query.project().orElse(null));
        return first + 4;
    }

    private static List<String> codes(String reasons) {
        return reasons == null || reasons.isBlank() ? List.of() : List.of(reasons.strip().split(" "));
    }

    @Override
    public Optional<String> cursor(String stream) {
        return database.one("SELECT position FROM notice_cursor WHERE stream = ?",
                statement -> statement.setString(1, stream), row -> row.getString(1));
    }

    @Override
    public void saveCursor(String stream, String position) {
        database.update("INSERT INTO notice_cursor (stream, position, updated_at) VALUES (?, ?, now())"
                + " ON CONFLICT (stream) DO UPDATE SET position = EXCLUDED.position, updated_at = now()",
                statement -> {
                    statement.setString(1, stream);
                    statement.setString(2, position);
                });
    }

    @Override
    public Optional<DeliveryProfile> profile(String agentId) {
        return database.one("SELECT agent_id, project_client_id, runtime_mode, interaction_mode, limit_runtime_mode,"
                + " limit_interaction_mode FROM notice_agent WHERE agent_id = ?",
                statement -> statement.setString(1, agentId), row -> new DeliveryProfile(row.getString(1),
                        row.getString(2), Optional.ofNullable(row.getString(3)), Optional.ofNullable(row.getString(4)),
                        row.getString(5), row.getString(6)));
    }

    @Override
    public void putProfile(DeliveryProfile profile) {
        database.update("INSERT INTO notice_agent (agent_id, project_client_id, runtime_mode, interaction_mode,"
                + " limit_runtime_mode, limit_interaction_mode, updated_at) VALUES (?, ?, ?, ?, ?, ?, now())"
                + " ON CONFLICT (agent_id) DO UPDATE SET project_client_id = EXCLUDED.project_client_id,"
                + " runtime_mode = EXCLUDED.runtime_mode, interaction_mode = EXCLUDED.interaction_mode,"
                + " limit_runtime_mode = EXCLUDED.limit_runtime_mode,"
                + " limit_interaction_mode = EXCLUDED.limit_interaction_mode, updated_at = now()", statement -> {
                    statement.setString(1, profile.agentId());
                    statement.setString(2, profile.projectClientId());
                    statement.setString(3, profile.runtimeMode().orElse(null));
                    statement.setString(4, profile.interactionMode().orElse(null));
                    statement.setString(5, profile.limitRuntimeMode());
                    statement.setString(6, profile.limitInteractionMode());
                });
    }

    private static Receipt receipt(ResultSet row) throws SQLException {
        return new Receipt(row.getString(1), row.getString(2), row.getString(3), row.getString(4), row.getLong(5),
                row.getInt(6), NoticeState.of(row.getString(7)), Optional.ofNullable(row.getString(8)),
                row.getBoolean(9));
    }
}
