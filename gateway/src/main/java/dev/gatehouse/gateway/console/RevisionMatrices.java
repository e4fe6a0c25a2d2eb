package dev.gatehouse.gateway.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.review.Calls;
import dev.gatehouse.review.Matrix;
import dev.gatehouse.review.Profiles;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The caller × tool matrix of a kept revision, computed by the review library ({@link Matrix#compute}, the code
 * {@code scripts/gatehouse matrix} runs) with the revision's own engine deciding each cell, on the caller profiles
 * the library ships. A revision never changes, so each matrix is computed once and kept while its revision is kept
 * (at most {@value #MAX_KEPT} matrices).
 */
@Singleton
public class RevisionMatrices {

    private static final int MAX_KEPT = 16;

    private final Profiles profiles = Profiles.bundled();
    private final Map<String, Matrix> matrices = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Matrix> eldest) {
            return size() > MAX_KEPT;
        }
    };

    /**
     * The matrix of {@code revision}.
     *
     * @throws dev.gatehouse.review.ReviewException when the revision has no access table or a schema does not compile
     */
    public synchronized Matrix of(KeptRevision revision) {
        String key = revision.revision() + "\u0000" + revision.activatedAt();
        Matrix matrix = matrices.get(key);
        if (matrix == null) {
            JsonNode table = PolicyJson.MAPPER.valueToTree(revision.contents().accessTable());
            JsonNode schemas = PolicyJson.MAPPER.valueToTree(revision.contents().schemas());
            matrix = Matrix.compute((calls, listings) -> new Matrix.Answers(answers(revision, Entrypoint.DECISION,
                    calls), answers(revision, Entrypoint.VISIBLE_TOOLS, listings)),
                    Calls.of(table, schemas, revision.source()), profiles, revision.source(), revision.revision());
            matrices.put(key, matrix);
        }
        return matrix;
    }

    /** Each input's answer; a fault is a missing node, which the matrix shows as undecided. */
    private static List<JsonNode> answers(KeptRevision revision, Entrypoint entrypoint, List<ObjectNode> inputs) {
        List<JsonNode> answers = new ArrayList<>();
        for (ObjectNode input : inputs) {
            PolicyOutcome<JsonNode> outcome = revision.evaluate(entrypoint.path(), input);
            answers.add(outcome instanceof PolicyOutcome.Decided<JsonNode> decided ? decided.value()
                    : MissingNode.getInstance());
        }
        return answers;
    }
}
