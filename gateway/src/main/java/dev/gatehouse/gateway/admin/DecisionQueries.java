package dev.gatehouse.gateway.admin;

import static dev.gatehouse.gateway.admin.QueryParameters.blankToNull;
import static dev.gatehouse.gateway.admin.QueryParameters.given;
import static dev.gatehouse.gateway.admin.QueryParameters.limit;
import static dev.gatehouse.gateway.admin.QueryParameters.text;

import dev.gatehouse.gateway.decisions.DecisionIndexConfiguration;
import dev.gatehouse.gateway.decisions.DecisionQuery;
import dev.gatehouse.gateway.decisions.Outcome;
import dev.gatehouse.gateway.gate.GateReasons;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The one reading of a decisions search's parameters, for the admin API and the console alike. Every problem is a
 * {@link FieldProblem} naming its field; nothing here throws on any input. An absent parameter is no filter; one
 * given empty or blank ({@code ?agent=}) is a problem, never no filter ({@link QueryParameters#given}).
 * <ul>
 * <li>{@code from}, {@code to}: ISO-8601 times with an offset ({@code 2026-12-01T10:00:00Z}); default the last
 * 24 hours up to now; each between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z; {@code from} must be before
 * {@code to}, and the range at most {@code max-range}.</li>
 * <li>{@code callerKind}: {@code thread}, {@code outside_agent} or {@code project_notice}; {@code outcome}:
 * {@code allowed}, {@code denied} or {@code unavailable}.</li>
 * <li>{@code reason}: a code of the reason catalogue of a revision this gateway keeps (docs/domain.md §8), or one
 * the PEP gives itself ({@code policy_unavailable}, {@code rate_limited}).</li>
 * <li>{@code agent}, {@code tool}, {@code revision}: matched exactly, at most {@value QueryParameters#MAX_TEXT} characters.</li>
 * <li>{@code limit}: 1 to {@value #MAX_LIMIT}, default {@value #DEFAULT_LIMIT}; {@code cursor}: a {@code next}
 * value of an earlier page.</li>
 * </ul>
 * The admin API also refuses a parameter not in {@link #PARAMETERS} and one given more than once
 * ({@code QueryParameters.strict}).
 */
@Singleton
public class DecisionQueries {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;
    /** Every parameter a search takes; the admin API refuses any other name, and a name given twice. */
    public static final List<String> PARAMETERS = List.of("from", "to", "agent", "callerKind", "tool", "outcome",
            "reason", "revision", "method", "limit", "cursor");
    /**
     * The earliest and latest time a search takes: a range's default start (a day before its end) and PostgreSQL's
     * timestamps (up to the year 294276) must hold it, and no decision is older than the epoch.
     */
    static final Instant EARLIEST = Instant.parse("1970-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");
    private static final Set<String> CALLER_KINDS = Set.of("thread", "outside_agent", "project_notice");

    private final DecisionIndexConfiguration configuration;
    private final RevisionHistory revisions;
    private final Clock clock;

    public DecisionQueries(DecisionIndexConfiguration configuration, RevisionHistory revisions, Clock clock) {
        this.configuration = configuration;
        this.revisions = revisions;
        this.clock = clock;
    }

    /**
     * The search's parameters by their API names ({@code from}, {@code to}, {@code agent} ...), each null when absent
     * (an empty value is the empty string, and refused).
     */
    public AdminResult<DecisionQuery> parse(Map<String, String> parameters) {
        List<FieldProblem> problems = new ArrayList<>();
        Instant now = clock.instant();
        Optional<Instant> to = time("to", parameters.get("to"), problems);
        Optional<Instant> from = time("from", parameters.get("from"), problems);
        Instant end = to.orElse(now);
        Instant start = from.orElse(end.minus(Duration.ofDays(1)));
        if (problems.isEmpty() && !start.isBefore(end)) {
            problems.add(FieldProblem.invalid("from", "The range's start must be before its end."));
        } else if (problems.isEmpty() && Duration.between(start, end).compareTo(configuration.getMaxRange()) > 0) {
            // Named on the field that was given: a start alone makes the range run to now.
            problems.add(FieldProblem.invalid(to.isEmpty() ? "from" : "to", "A range is at most "
                    + days(configuration.getMaxRange()) + "; narrow the range."));
        }
        Optional<String> agent = text("agent", parameters.get("agent"), problems);
        Optional<String> kind = text("callerKind", parameters.get("callerKind"), problems);
        if (kind.isPresent() && !CALLER_KINDS.contains(kind.get())) {
            problems.add(FieldProblem.invalid("callerKind", "A caller kind is thread, outside_agent or"
                    + " project_notice."));
        }
        Optional<String> tool = text("tool", parameters.get("tool"), problems);
        Optional<String> outcomeText = text("outcome", parameters.get("outcome"), problems);
        Optional<Outcome> outcome = outcomeText.flatMap(Outcome::ofWire);
        if (outcomeText.isPresent() && outcome.isEmpty()) {
            problems.add(FieldProblem.invalid("outcome",
                    "An outcome is allowed, denied, unavailable or rate_limited."));
        }
        Optional<String> reason = text("reason", parameters.get("reason"), problems);
        if (reason.isPresent() && !knownReasons().contains(reason.get())) {
            problems.add(FieldProblem.invalid("reason", "Not a reason code of the policy revisions this gateway"
                    + " keeps."));
        }
        Optional<String> revision = text("revision", parameters.get("revision"), problems);
        Optional<String> method = text("method", parameters.get("method"), problems);
        if (method.isPresent() && !Set.of("tools/call", "tools/list", "notice").contains(method.get())) {
            problems.add(FieldProblem.invalid("method", "A method is tools/call, tools/list or notice."));
        }
        int limit = limit(parameters.get("limit"), DEFAULT_LIMIT, MAX_LIMIT, problems);
        Optional<DecisionQuery.Cursor> cursor = Optional.empty();
        Optional<String> cursorText = given("cursor", parameters.get("cursor"), problems);
        if (cursorText.isPresent()) {
            cursor = cursorText.get().length() > 200 ? Optional.empty() : DecisionQuery.Cursor.parse(cursorText.get());
            if (cursor.isEmpty()) {
                problems.add(FieldProblem.invalid("cursor", "A cursor is the next value of an earlier page."));
            }
        }
        if (!problems.isEmpty()) {
            return new AdminResult.Refused<>(problems);
        }
        return new AdminResult.Done<>(new DecisionQuery(start, end, agent, kind, tool, outcome, reason, revision,
                method, limit, cursor));
    }

    /** A decision id as the caller got it, or the field problem. */
    public static AdminResult<UUID> decisionId(@Nullable String text) {
        String id = blankToNull(text);
        if (id == null) {
            return AdminResult.refused(FieldProblem.missing("decisionId"));
        }
        try {
            UUID parsed = UUID.fromString(id);
            if (parsed.toString().equalsIgnoreCase(id)) {
                return new AdminResult.Done<>(parsed);
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        return AdminResult.refused(FieldProblem.invalid("decisionId",
                "A decision id is a UUID, as a denial carries it (structuredContent.decisionId, _meta[\"dev.gatehouse/decisionId\"])."));
    }

    /** The codes of every kept revision's reason catalogue and the PEP's own ({@link GateReasons#CODES}), sorted. */
    public Set<String> knownReasons() {
        Set<String> codes = new TreeSet<>(GateReasons.CODES);
        revisions.kept().forEach(k -> codes.addAll(k.contents().reasons().keySet()));
        return codes;
    }

    private static Optional<Instant> time(String field, @Nullable String text, List<FieldProblem> problems) {
        String value = given(field, text, problems).orElse(null);
        if (value == null) {
            return Optional.empty();
        }
        try {
            if (value.length() <= 40) {
                Instant time = OffsetDateTime.parse(value).toInstant();
                if (time.isBefore(EARLIEST) || time.isAfter(LATEST)) {
                    // Beyond these, a range's default start or the store's own timestamps cannot hold the time.
                    problems.add(FieldProblem.invalid(field, "A time lies between " + EARLIEST + " and " + LATEST
                            + "."));
                    return Optional.empty();
                }
                return Optional.of(time);
            }
        } catch (DateTimeParseException e) {
            // answered below
        }
        problems.add(FieldProblem.invalid(field, "A time is ISO-8601 with an offset, e.g. 2026-12-01T10:00:00Z."));
        return Optional.empty();
    }

    private static String days(Duration duration) {
        return duration.toHours() % 24 == 0 ? duration.toDays() + " days" : duration.toHours() + " hours";
    }
}
