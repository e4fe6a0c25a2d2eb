package dev.gatehouse.gateway.decisions;

import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import dev.gatehouse.review.Explanation;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import dev.gatehouse.review.ReviewException;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Explains one logged decision as {@code scripts/gatehouse explain} does (the review library's {@link Explanation}:
 * {@code opa eval --explain=fails} on the record's input, its stand-ins put back), on the Rego bundle of the revision
 * that decided it, verified as its Wasm bundle was ({@link KeptRevision#regoBundle()}). It needs the revision kept,
 * its Rego bundle found, and the {@code opa} binary on this host ({@code GATEHOUSE_OPA}, else the cache {@code make
 * opa} fills); without one of them it says which.
 */
@Singleton
public class Explain {

    private final RevisionHistory revisions;

    public Explain(RevisionHistory revisions) {
        this.revisions = revisions;
    }

    /** The explanation, or why there is none. */
    public Result explain(StoredDecision decision) {
        Replay.Restored restored = Replay.restore(decision);
        if (restored.refusal().isPresent()) {
            return new Result(Optional.empty(), restored.refusal());
        }
        Optional<KeptRevision> revision = decision.summary().revision().flatMap(revisions::kept);
        if (revision.isEmpty()) {
            return new Result(Optional.empty(), Optional.of("The revision that decided is no longer kept."));
        }
        Optional<byte[]> rego = revision.get().regoBundle();
        if (rego.isEmpty()) {
            return new Result(Optional.empty(), Optional.of("This gateway has no Rego bundle of revision "
                    + revision.get().revision() + " (gatehouse.policy.rego-bundle-path; make bundle builds it)."));
        }
        Path file = null;
        try {
            Opa opa = Opa.locate(null);
            file = Files.createTempFile("gatehouse-explain-", ".tar.gz");
            Files.write(file, rego.get());
            try (PolicySource source = PolicySource.bundle(file)) {
                return new Result(Optional.of(Explanation.of(opa, source, restored.input(), "fails")),
                        Optional.empty());
            }
        } catch (ReviewException | IOException e) {
            return new Result(Optional.empty(), Optional.of("Explain could not run: " + e.getMessage()));
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // a temporary file left behind; the system's temp cleanup takes it
                }
            }
        }
    }

    /**
     * @param explanation the decision, its reasons with where the policy declares them, and the trace
     * @param refusal     why there is no explanation
     */
    public record Result(Optional<Explanation> explanation, Optional<String> refusal) {
    }
}
