package dev.gatehouse.gateway.decisions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import dev.gatehouse.review.StandIns;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Replays one logged decision (docs/design.md, "Finding decisions"): its input as logged, with the values its
 * stand-ins name put back (the review library's {@link StandIns}, as {@code scripts/gatehouse replay} does), is
 * evaluated at the record's entry point by every revision the gateway keeps, and each answer is compared with the
 * result the record logged. A record whose values were not kept, or that logged no input (a fault before the PDP),
 * cannot be replayed and says why.
 */
@Singleton
public class Replay {

    private final RevisionHistory revisions;

    public Replay(RevisionHistory revisions) {
        this.revisions = revisions;
    }

    /**
     * The record's answer from each kept revision, the serving one first.
     *
     * @return empty with {@code refusal} set when the record cannot be replayed
     */
    public Result replay(StoredDecision decision) {
        Restored restored = restore(decision);
        if (restored.refusal().isPresent()) {
            return Result.refused(restored.refusal().get());
        }
        ObjectNode input = restored.input();
        String path = restored.record().path("path").asText();
        JsonNode result = restored.record().path("result");
        List<Answer> answers = new ArrayList<>();
        for (KeptRevision revision : revisions.kept()) {
            PolicyOutcome<JsonNode> outcome = revision.evaluate(path, input);
            if (outcome instanceof PolicyOutcome.Decided<JsonNode> decided) {
                answers.add(new Answer(revision.revision(), Optional.of(decided.value()), Optional.empty(),
                        decided.value().equals(result)));
            } else {
                answers.add(new Answer(revision.revision(), Optional.empty(),
                        Optional.of(((PolicyOutcome.Failed<JsonNode>) outcome).fault().toString()), false));
            }
        }
        return new Result(answers, Optional.empty(), result);
    }

    /**
     * The record as the policy saw it: its stand-ins put back, with its input and entry point; or why it cannot be.
     */
    public static Restored restore(StoredDecision decision) {
        JsonNode logged;
        try {
            logged = PolicyJson.MAPPER.readTree(decision.record());
        } catch (IOException e) {
            return Restored.refused("The record is not JSON.");
        }
        StandIns values = new StandIns();
        if (decision.values().isPresent()) {
            try {
                PolicyJson.MAPPER.readTree(decision.values().get()).forEach(values::add);
            } catch (IOException e) {
                return Restored.refused("The values kept beside the record are not JSON.");
            }
        }
        Optional<ObjectNode> record = values.restore(logged);
        if (record.isEmpty()) {
            return Restored.refused(decision.valuesMissing()
                    ? "The index did not keep the values this record stands in for; replay it from the log files"
                    + " (scripts/gatehouse replay)." : "A value this record stands in for was masked, never kept.");
        }
        if (!(record.get().path("input") instanceof ObjectNode input) || record.get().path("path").asText("")
                .isEmpty()) {
            return Restored.refused("The record logged no input: the PDP was never asked.");
        }
        return new Restored(record.get(), input, Optional.empty());
    }

    /**
     * A record restored, or why not.
     *
     * @param record  the whole record with its values put back (empty object when refused)
     * @param input   its {@code input}
     * @param refusal why it cannot be decided again
     */
    public record Restored(ObjectNode record, ObjectNode input, Optional<String> refusal) {

        static Restored refused(String why) {
            return new Restored(PolicyJson.MAPPER.createObjectNode(), PolicyJson.MAPPER.createObjectNode(),
                    Optional.of(why));
        }
    }

    /**
     * @param answers one per kept revision, the serving one first
     * @param refusal why the record could not be replayed
     * @param logged  the result the record logged
     */
    public record Result(List<Answer> answers, Optional<String> refusal, JsonNode logged) {

        static Result refused(String why) {
            return new Result(List.of(), Optional.of(why), PolicyJson.MAPPER.missingNode());
        }
    }

    /**
     * One revision's answer.
     *
     * @param revision the manifest revision
     * @param value    what it answered
     * @param fault    why it could not answer
     * @param same     whether it answered exactly what the record logged
     */
    public record Answer(String revision, Optional<JsonNode> value, Optional<String> fault, boolean same) {

        /** Whether it allows ({@code allow: true}). */
        public boolean allows() {
            return value.map(v -> v.path("allow").asBoolean(false)).orElse(false);
        }

        /** Its reason codes. */
        public List<String> reasons() {
            List<String> codes = new ArrayList<>();
            value.ifPresent(v -> v.path("reasons").forEach(r -> codes.add(r.path("code").asText(""))));
            return codes;
        }
    }
}
