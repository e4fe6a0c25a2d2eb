package dev.gatehouse.bench;

import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.ToolSchema;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.bundle.BundleVerification;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The benchmarked calls and the PDP they run on. */
final class Fixture {

    /** A thread caller that owns a live run at full-access/default, every setting on (docs/domain.md §1, §4). */
    static final CallerFacts CALLER = new CallerFacts("thread", "a1", Optional.of("t1"), Optional.of("pi"),
            Optional.of(ThreadShell.found(false, true, Optional.of("pi"), "full-access", "default")), Optional.empty(),
            new CallerFacts.Settings(true, true, true, true, true), Optional.empty());

    /** tools/call wiki_write: allowed, with the obligation {@code wikiPaths.path = agents/a1/notes/page.md}. */
    static final DecisionInput WIKI_WRITE = new DecisionInput(Optional.of("wiki_write"),
            Optional.of(Map.of("path", "notes/page.md", "content", "hello", "baseRevision", "r1")), List.of(),
            CALLER, Map.of());

    /**
     * tools/call t3_thread_launch asking for a narrower runtime mode: allowed with the modes obligation. The
     * reference call that touches no wiki path rule (so no {@code regex.match}).
     */
    static final DecisionInput THREAD_LAUNCH = new DecisionInput(Optional.of("t3_thread_launch"),
            Optional.of(Map.of("projectId", "p1", "prompt", "fix the build", "runtimeMode", "auto")), List.of(),
            CALLER, Map.of());

    /** tools/list for the same caller. */
    static final DecisionInput LISTING = DecisionInput.forListing(CALLER);

    private static PolicyContents contents;

    private Fixture() {
    }

    /** The bundle: {@code -Dgatehouse.bundle}, default {@code target/bundle/bundle.tar.gz} (run from the repo). */
    static Path bundle() {
        Path bundle = Path.of(System.getProperty("gatehouse.bundle", "target/bundle/bundle.tar.gz"));
        if (!Files.isRegularFile(bundle)) {
            throw new IllegalStateException(bundle.toAbsolutePath() + " is missing: run make bundle");
        }
        return bundle;
    }

    /**
     * The bench's embedded-PDP configuration for {@code bundle}: verified with the local signing key of
     * {@code make bundle} ({@code -Dgatehouse.bundle.public-key}, default
     * {@code .gatehouse-data/bundle-signing/public.pem}), and unsigned bundles allowed, since scripts/bench.sh
     * builds its table-size and profile bundles without signing them.
     */
    static EmbeddedPdpConfiguration configuration(Path bundle) {
        EmbeddedPdpConfiguration configuration = new EmbeddedPdpConfiguration();
        configuration.setBundlePath(bundle.toString());
        configuration.setVerificationKey(publicKey().toString());
        configuration.setAllowUnsigned(true);
        return configuration;
    }

    /** The verification of {@link #configuration(Path)}. */
    static BundleVerification verification() {
        return configuration(bundle()).verification();
    }

    private static Path publicKey() {
        return Path.of(System.getProperty("gatehouse.bundle.public-key", ".gatehouse-data/bundle-signing/public.pem"))
                .toAbsolutePath();
    }

    /** An embedded PDP on {@link #bundle()} with {@code poolMax} instances, checked healthy. */
    static EmbeddedPdp pdp(int poolMax) {
        return pdp(bundle(), poolMax);
    }

    /**
     * A tool as the revision in {@link #bundle()} serves it: its row and its schema compiled by the gateway's own
     * closed-schema check (the bench enforces nothing, so no handler).
     */
    static ToolSchema schema(String tool) {
        return ToolSchema.compile(tool, contents().schemas().get(tool), new ClosedSchemaArgumentCheck());
    }

    /** The access-table row of {@code tool} in the revision in {@link #bundle()}. */
    static AccessRow row(String tool) {
        return servedRow(tool).orElseThrow();
    }

    /** The row of {@code tool} when the revision in {@link #bundle()} serves it; empty for an unknown name. */
    static Optional<AccessRow> servedRow(String tool) {
        return contents().row(tool);
    }

    private static synchronized PolicyContents contents() {
        if (contents == null) {
            contents = pdp(1).serving().orElseThrow().contents();
        }
        return contents;
    }

    /** An embedded PDP on {@code bundle} with {@code poolMax} instances, checked healthy. */
    static EmbeddedPdp pdp(Path bundle, int poolMax) {
        EmbeddedPdpConfiguration configuration = configuration(bundle);
        configuration.setPoolSize(poolMax);
        EmbeddedPdp pdp = new EmbeddedPdp(configuration);
        if (!pdp.status().healthy()) {
            throw new IllegalStateException("PDP unhealthy: " + pdp.status());
        }
        return pdp;
    }
}
