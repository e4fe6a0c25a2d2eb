package dev.gatehouse.gateway.admin;

import static dev.gatehouse.gateway.admin.QueryParameters.given;
import static dev.gatehouse.gateway.admin.QueryParameters.limit;
import static dev.gatehouse.gateway.admin.QueryParameters.text;

import dev.gatehouse.gateway.notice.NoticeQuery;
import dev.gatehouse.gateway.notice.NoticeState;
import dev.gatehouse.gateway.notice.NoticeStore;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one reading of a notice listing's parameters and the one listing, for {@code GET /admin/notices/receipts} and
 * the console's Notices page alike (docs/domain.md §9). An absent parameter is no filter, one given empty or blank is
 * a problem ({@link QueryParameters#given}); nothing here throws on any input, every problem is a {@link FieldProblem}
 * naming its field:
 * <ul>
 * <li>{@code state}: {@code pending}, {@code coalesced}, {@code delivered}, {@code refused} or {@code stale};</li>
 * <li>{@code agent}, {@code project}: matched exactly, at most {@value QueryParameters#MAX_TEXT} characters;</li>
 * <li>{@code limit}: 1 to {@value #MAX_LIMIT}, default {@value #DEFAULT_LIMIT}.</li>
 * </ul>
 * The admin API also refuses a parameter not in {@link #PARAMETERS} and one given more than once
 * ({@code QueryParameters.strict}).
 * The store not answering throws {@code StoreUnavailableException} (a 503).
 */
@Singleton
public class NoticeQueries {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;
    /** Every parameter a listing takes; the admin API refuses any other name, and a name given twice. */
    public static final List<String> PARAMETERS = List.of("state", "agent", "project", "limit");

    /**
     * What a listing shows.
     *
     * @param counts  receipts per state of the agent and project filters (every state present)
     * @param notices the selected receipts, newest received first
     * @param threads aggregates per agent, project and thread, the most recently active first
     */
    public record Listing(NoticeQuery query, Map<NoticeState, Long> counts, List<NoticeStore.Listed> notices,
            List<NoticeStore.ThreadSends> threads) {
    }

    private final NoticeStore store;

    public NoticeQueries(NoticeStore store) {
        this.store = store;
    }

    /**
     * The listing's parameters by their API names ({@code state}, {@code agent}, {@code project}, {@code limit}), each
     * null when absent.
     */
    public AdminResult<NoticeQuery> parse(Map<String, String> parameters) {
        List<FieldProblem> problems = new ArrayList<>();
        Optional<NoticeState> state = Optional.empty();
        Optional<String> stateText = given("state", parameters.get("state"), problems);
        if (stateText.isPresent()) {
            state = Arrays.stream(NoticeState.values()).filter(s -> s.wire().equals(stateText.get())).findFirst();
            if (state.isEmpty()) {
                problems.add(FieldProblem.invalid("state",
                        "A state is pending, coalesced, delivered, refused or stale."));
            }
        }
        Optional<String> agent = text("agent", parameters.get("agent"), problems);
        Optional<String> project = text("project", parameters.get("project"), problems);
        int limit = limit(parameters.get("limit"), DEFAULT_LIMIT, MAX_LIMIT, problems);
        if (!problems.isEmpty()) {
            return new AdminResult.Refused<>(problems);
        }
        return new AdminResult.Done<>(new NoticeQuery(state, agent, project, limit));
    }

    /** The counts, notices and aggregates per thread the query selects. */
    public Listing find(NoticeQuery query) {
        return new Listing(query, store.counts(query), store.list(query), store.threads(query));
    }
}
