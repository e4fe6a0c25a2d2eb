package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.decisions.DecisionIndex;
import dev.gatehouse.gateway.decisions.DecisionPage;
import dev.gatehouse.gateway.decisions.DecisionQuery;
import dev.gatehouse.gateway.decisions.DecisionSummary;
import dev.gatehouse.gateway.decisions.Outcome;
import dev.gatehouse.gateway.decisions.StoredDecision;
import jakarta.inject.Singleton;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@link DecisionIndex} on {@code decision_index} and {@code decision_record} (migration V12).
 *
 * <p>Writes: one statement per batch, the rows passed as parallel arrays and unnested, both tables filled by one
 * data-modifying CTE; a decision id already there is skipped with its record ({@code ON CONFLICT DO NOTHING ...
 * RETURNING}), so a batch sent twice changes nothing.
 *
 * <p>Reads: a search reads the range newest first through {@code decision_index_time} (or
 * {@code decision_index_agent} when it names an agent) and stops after {@code scanLimit} rows; the other filters
 * apply to those rows only. So every statement's work is bounded, whatever the range or the filters: a rare match in
 * a busy range is found by following the pages, each one bounded, and the page says where its look stopped.
 */
@Singleton
public class PostgresDecisionIndex implements DecisionIndex {

    private static final String SUMMARY = "decision_id, decided_at, replica, method, tool, caller_kind, agent_id,"
            + " thread_id, outcome, reasons, revision, key_id";
    /** Rows one sweep statement deletes at most; a sweep runs at most {@value #SWEEP_ROUNDS} of them per bound. */
    private static final int SWEEP_STEP = 10_000;
    private static final int SWEEP_ROUNDS = 50;

    private final Database database;

    public PostgresDecisionIndex(Database database) {
        this.database = database;
    }

    @Override
    public void add(List<StoredDecision> decisions) {
        if (decisions.isEmpty()) {
            return;
        }
        int n = decisions.size();
        String[][] columns = new String[15][n];
        for (int i = 0; i < n; i++) {
            StoredDecision d = decisions.get(i);
            DecisionSummary s = d.summary();
            columns[0][i] = s.decisionId().toString();
            columns[1][i] = s.decidedAt().toString();
            columns[2][i] = s.replica();
            columns[3][i] = s.method();
            columns[4][i] = s.tool().orElse(null);
            columns[5][i] = s.callerKind();
            columns[6][i] = s.agentId();
            columns[7][i] = s.threadId().orElse(null);
            columns[8][i] = s.outcome().wire();
            columns[9][i] = String.join(" ", s.reasons());
            columns[10][i] = s.revision().orElse(null);
            columns[11][i] = s.keyId().orElse(null);
            columns[12][i] = d.record();
            columns[13][i] = d.values().orElse(null);
            columns[14][i] = String.valueOf(d.valuesMissing());
        }
        database.update("WITH r AS (SELECT * FROM unnest(" + "?::text[], ".repeat(14) + "?::text[]) AS r(decision_id,"
                + " decided_at, replica, method, tool, caller_kind, agent_id, thread_id, outcome, reasons, revision,"
                + " key_id, record, stored_values, values_missing)),"
                + " i AS (INSERT INTO decision_index (" + SUMMARY + ")"
                + " SELECT decision_id::uuid, decided_at::timestamptz, replica, method, tool, caller_kind, agent_id,"
                + " thread_id, outcome, string_to_array(reasons, ' '), revision, key_id FROM r"
                + " ON CONFLICT (decision_id) DO NOTHING RETURNING seq, decision_id)"
                + " INSERT INTO decision_record (seq, record, stored_values, values_missing)"
                + " SELECT i.seq, r.record, r.stored_values, r.values_missing::boolean FROM i"
                + " JOIN r ON r.decision_id::uuid = i.decision_id", statement -> {
                    for (int c = 0; c < columns.length; c++) {
                        statement.setArray(c + 1, statement.getConnection().createArrayOf("text", columns[c]));
                    }
                });
    }

    @Override
    public DecisionPage search(DecisionQuery query, int scanLimit) {
        Sql page = page(query, scanLimit, "*", "hit.*", "");
        List<DecisionSummary> rows = new ArrayList<>();
        Scanned scanned = new Scanned();
        database.query(page.sql.toString(), page::bind, row -> {
            scanned.read(row);
            if (row.getObject("decision_id") != null) {
                rows.add(summary(row));
            }
            return null;
        });
        Optional<DecisionQuery.Cursor> next = Optional.empty();
        if (rows.size() > query.limit()) {
            rows.remove(rows.size() - 1);
            DecisionSummary lastShown = rows.get(rows.size() - 1);
            next = Optional.of(new DecisionQuery.Cursor(lastShown.decidedAt(), lastShown.decisionId()));
        }
        boolean pageLimited = rows.size() < query.limit() + 1 && scanned.count >= scanLimit && next.isEmpty();
        if (pageLimited) {
            next = Optional.ofNullable(scanned.last);
        }
        return counted(query, scanLimit, rows, next, pageLimited);
    }

    /** Adds the counts of the whole search (from its first page) to a page. */
    private DecisionPage counted(DecisionQuery query, int scanLimit, List<DecisionSummary> rows,
            Optional<DecisionQuery.Cursor> next, boolean pageLimited) {
        Sql counts = scan(query.first(), scanLimit, false);
        counts.sql.append(", m AS (SELECT outcome, reasons FROM scan WHERE true");
        filters(query, counts);
        counts.sql.append(") SELECT 'scanned' AS kind, NULL AS name, count(*) AS n, min(decided_at) AS oldest"
                + " FROM scan UNION ALL SELECT 'matched', NULL, count(*), NULL FROM m"
                + " UNION ALL SELECT 'outcome', outcome, count(*), NULL FROM m GROUP BY outcome"
                + " UNION ALL SELECT 'reason', code, count(*), NULL FROM m, unnest(m.reasons) AS code GROUP BY code");
        Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
        List<Map.Entry<String, Long>> reasons = new ArrayList<>();
        long[] totals = {0, 0};
        Instant[] oldest = {null};
        database.query(counts.sql.toString(), counts::bind, row -> {
            String kind = row.getString("kind");
            long n = row.getLong("n");
            switch (kind) {
                case "scanned" -> {
                    totals[0] = n;
                    OffsetDateTime at = row.getObject("oldest", OffsetDateTime.class);
                    oldest[0] = at == null ? null : at.toInstant();
                }
                case "matched" -> totals[1] = n;
                case "outcome" -> Outcome.ofWire(row.getString("name")).ifPresent(o -> outcomes.put(o, n));
                default -> reasons.add(Map.entry(row.getString("name"), n));
            }
            return null;
        });
        reasons.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        Map<String, Long> byReason = new LinkedHashMap<>();
        reasons.forEach(e -> byReason.put(e.getKey(), e.getValue()));
        Optional<Instant> stoppedAt = totals[0] >= scanLimit ? Optional.ofNullable(oldest[0]) : Optional.empty();
        return new DecisionPage(rows, next, totals[1], outcomes, byReason, totals[0], stoppedAt, pageLimited);
    }

    @Override
    public RecordPage records(DecisionQuery query, int scanLimit) {
        Sql page = page(query, scanLimit, "seq, decided_at, decision_id", "hit.decided_at, hit.decision_id, r.record",
                " LEFT JOIN decision_record r ON r.seq = hit.seq");
        List<String> records = new ArrayList<>();
        List<DecisionQuery.Cursor> keys = new ArrayList<>();
        Scanned scanned = new Scanned();
        database.query(page.sql.toString(), page::bind, row -> {
            scanned.read(row);
            if (row.getString("record") != null) {
                records.add(row.getString("record"));
                keys.add(new DecisionQuery.Cursor(row.getObject("decided_at", OffsetDateTime.class).toInstant(),
                        row.getObject("decision_id", UUID.class)));
            }
            return null;
        });
        if (records.size() > query.limit()) {
            records.remove(records.size() - 1);
            return new RecordPage(records, Optional.of(keys.get(records.size() - 1)));
        }
        return new RecordPage(records, scanned.count >= scanLimit ? Optional.ofNullable(scanned.last)
                : Optional.empty());
    }

    @Override
    public Optional<StoredDecision> find(UUID decisionId) {
        return database.one("SELECT " + SUMMARY.replace("decision_id", "i.decision_id").replace(", reasons",
                ", i.reasons") + ", r.record, r.stored_values, r.values_missing FROM decision_index i"
                + " JOIN decision_record r ON r.seq = i.seq WHERE i.decision_id = ?",
                statement -> statement.setObject(1, decisionId),
                row -> new StoredDecision(summary(row), row.getString("record"),
                        Optional.ofNullable(row.getString("stored_values")), row.getBoolean("values_missing")));
    }

    @Override
    public long sweep(Instant before, long maxRecords) {
        long deleted = 0;
        for (int round = 0; round < SWEEP_ROUNDS; round++) {
            int n = database.update("DELETE FROM decision_index WHERE seq IN (SELECT seq FROM decision_index"
                    + " WHERE decided_at < ? ORDER BY decided_at LIMIT " + SWEEP_STEP + ")",
                    statement -> statement.setObject(1, OffsetDateTime.ofInstant(before, ZoneOffset.UTC)));
            deleted += n;
            if (n < SWEEP_STEP) {
                break;
            }
        }
        // seq has gaps (skipped duplicates, earlier sweeps): the bound is the seq of the newest row beyond it, found
        // once by the primary key, not max(seq) minus the bound
        Optional<Long> beyond = database.one("SELECT seq FROM decision_index ORDER BY seq DESC OFFSET ? LIMIT 1",
                statement -> statement.setLong(1, maxRecords), row -> row.getLong(1));
        for (int round = 0; beyond.isPresent() && round < SWEEP_ROUNDS; round++) {
            int n = database.update("DELETE FROM decision_index WHERE seq IN (SELECT seq FROM decision_index"
                    + " WHERE seq <= ? ORDER BY seq LIMIT " + SWEEP_STEP + ")",
                    statement -> statement.setLong(1, beyond.get()));
            deleted += n;
            if (n < SWEEP_STEP) {
                break;
            }
        }
        return deleted;
    }

    /** {@code WITH scan AS (...)}: the range (the agent's, when named) newest first, after the cursor, bounded. */
    private static Sql scan(DecisionQuery query, int scanLimit, boolean withCursor) {
        Sql sql = new Sql("WITH scan AS (SELECT seq, " + SUMMARY + " FROM decision_index"
                + " WHERE decided_at >= ? AND decided_at < ?");
        sql.values.add(OffsetDateTime.ofInstant(query.from(), ZoneOffset.UTC));
        sql.values.add(OffsetDateTime.ofInstant(query.to(), ZoneOffset.UTC));
        query.agent().ifPresent(agent -> {
            sql.sql.append(" AND agent_id = ?");
            sql.values.add(agent);
        });
        if (withCursor && query.after().isPresent()) {
            sql.sql.append(" AND (decided_at, decision_id) < (?, ?)");
            sql.values.add(OffsetDateTime.ofInstant(query.after().get().at(), ZoneOffset.UTC));
            sql.values.add(query.after().get().id());
        }
        sql.sql.append(" ORDER BY decided_at DESC, decision_id DESC LIMIT ?)");
        sql.values.add(scanLimit);
        return sql;
    }

    /**
     * One page of a search, newest first: {@code scan}, then {@code hit} ({@code hitColumns} of the filtered rows,
     * one more than the page's limit, so a next page shows), {@code seen} (how many rows the scan read) and
     * {@code last} (the oldest row it read, where a scan stopped by its limit goes on); selects {@code scanned},
     * {@code last_at}, {@code last_id} and {@code selected} from {@code hit}, joined with {@code join}, one row at
     * least (its {@code hit} columns null when nothing matched).
     */
    private static Sql page(DecisionQuery query, int scanLimit, String hitColumns, String selected, String join) {
        Sql page = scan(query, scanLimit, true);
        page.sql.append(", hit AS (SELECT ").append(hitColumns).append(" FROM scan WHERE true");
        filters(query, page);
        page.sql.append(" ORDER BY decided_at DESC, decision_id DESC LIMIT ?)");
        page.values.add(query.limit() + 1);
        page.sql.append(", seen AS (SELECT count(*) AS scanned FROM scan)"
                + ", last AS (SELECT decided_at AS last_at, decision_id AS last_id FROM scan"
                + " ORDER BY decided_at, decision_id LIMIT 1)"
                + " SELECT seen.scanned, last.last_at, last.last_id, ").append(selected)
                .append(" FROM seen LEFT JOIN last ON true LEFT JOIN hit ON true").append(join)
                .append(" ORDER BY hit.decided_at DESC, hit.decision_id DESC");
        return page;
    }

    /** The filters applied to the scanned rows. */
    private static void filters(DecisionQuery query, Sql sql) {
        query.callerKind().ifPresent(kind -> sql.and("caller_kind = ?", kind));
        query.tool().ifPresent(tool -> sql.and("tool = ?", tool));
        query.outcome().ifPresent(outcome -> sql.and("outcome = ?", outcome.wire()));
        query.reason().ifPresent(reason -> sql.and("? = ANY(reasons)", reason));
        query.revision().ifPresent(revision -> sql.and("revision = ?", revision));
        query.method().ifPresent(method -> sql.and("method = ?", method));
    }

    private static DecisionSummary summary(ResultSet row) throws SQLException {
        Array reasons = row.getArray("reasons");
        return new DecisionSummary(row.getObject("decision_id", UUID.class),
                row.getObject("decided_at", OffsetDateTime.class).toInstant(), row.getString("replica"),
                row.getString("method"), Optional.ofNullable(row.getString("tool")), row.getString("caller_kind"),
                row.getString("agent_id"), Optional.ofNullable(row.getString("thread_id")),
                Outcome.ofWire(row.getString("outcome")).orElseThrow(),
                reasons == null ? List.of() : Arrays.asList((String[]) reasons.getArray()),
                Optional.ofNullable(row.getString("revision")), Optional.ofNullable(row.getString("key_id")));
    }

    /** What the rows of a {@link #page} say of the scan: how many rows it read and the oldest of them. */
    private static final class Scanned {

        long count;
        DecisionQuery.Cursor last;

        void read(ResultSet row) throws SQLException {
            count = row.getLong("scanned");
            OffsetDateTime lastAt = row.getObject("last_at", OffsetDateTime.class);
            if (lastAt != null) {
                last = new DecisionQuery.Cursor(lastAt.toInstant(), row.getObject("last_id", UUID.class));
            }
        }
    }

    /** A statement being built and its parameters in order. */
    private static final class Sql {

        final StringBuilder sql;
        final List<Object> values = new ArrayList<>();

        Sql(String start) {
            this.sql = new StringBuilder(start);
        }

        void and(String condition, Object value) {
            sql.append(" AND ").append(condition);
            values.add(value);
        }

        void bind(PreparedStatement statement) throws SQLException {
            for (int i = 0; i < values.size(); i++) {
                statement.setObject(i + 1, values.get(i));
            }
        }
    }
}
