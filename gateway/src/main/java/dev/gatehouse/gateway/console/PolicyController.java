package dev.gatehouse.gateway.console;

import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.gateway.notice.NoticeProperties;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import dev.gatehouse.review.Html;
import dev.gatehouse.review.Matrix;
import dev.gatehouse.review.ReviewException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.security.authentication.Authentication;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /console/policy}: what this replica (named, as each replica keeps its own revisions) serves, in the order
 * an operator checks a new revision: the served revision (manifest revision, key id, when it was activated and from
 * which source), the diff of its caller × tool matrix against the revision served before it (the review library's
 * rendering, as {@code scripts/gatehouse diff} gives it), the other revisions this gateway keeps and the offers it
 * refused with their reasons; then the revision's access table, ordered by toolkit and tool as the matrix groups
 * them, and the whole matrix.
 */
@Controller("/console/policy")
@Produces(MediaType.TEXT_HTML)
public class PolicyController {

    /** The access table's order on the page: by toolkit, then by tool. */
    static final Comparator<Map.Entry<String, AccessRow>> TABLE_ORDER = Comparator
            .comparing((Map.Entry<String, AccessRow> row) -> row.getValue().toolkit())
            .thenComparing(Map.Entry::getKey);

    private final RevisionHistory revisions;
    private final RevisionMatrices matrices;
    private final NoticeProperties replica;

    public PolicyController(RevisionHistory revisions, RevisionMatrices matrices, NoticeProperties replica) {
        this.revisions = revisions;
        this.matrices = matrices;
        this.replica = replica;
    }

    @Get
    public HttpResponse<?> policy(Authentication operator, HttpRequest<?> request) {
        PageParameters parameters = PageParameters.of(request);
        if (!parameters.ok()) {
            return parameters.refused(ConsolePages.page("Policy", "policy", operator), "/console/policy");
        }
        List<KeptRevision> kept = revisions.kept();
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("kept", kept);
        model.put("capacity", revisions.capacity());
        model.put("refusals", revisions.refusals());
        Optional<KeptRevision> served = kept.stream().findFirst();
        model.put("served", served);
        model.put("replica", replica.getReplicaName());
        model.put("rows", served.map(s -> s.contents().rows().entrySet().stream().sorted(TABLE_ORDER).toList())
                .orElse(List.of()));
        String matrix = "";
        String diff = "";
        String problem = "";
        if (served.isPresent()) {
            try {
                Matrix now = matrices.of(served.get());
                matrix = Html.matrix(now);
                if (kept.size() > 1) {
                    Matrix before = matrices.of(kept.get(1));
                    diff = Html.diff(before, now, Matrix.changes(before, now));
                }
            } catch (ReviewException e) {
                problem = e.getMessage();
            }
        }
        // rendered by the review library, which escapes every value it writes
        model.put("matrix", matrix);
        model.put("diff", diff);
        model.put("problem", problem);
        return HttpResponse.ok(ConsolePages.view("console/policy", ConsolePages.page("Policy", "policy", operator),
                model));
    }
}
