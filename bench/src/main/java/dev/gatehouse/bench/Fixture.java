package dev.gatehouse.bench;

import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.context.TrustedContext.Modes;
import dev.gatehouse.gateway.policy.api.DecisionInput;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The benchmarked calls and the PDP they run on. */
final class Fixture {

    /** A live thread caller with every scope, at full limits (docs/domain.md §1, §4). */
    static final TrustedContext CALLER = new TrustedContext("bench", CallerKind.THREAD, Optional.of("t1"),
            Optional.of("ps"), Optional.of("pi"), "a1", "Agent One", Optional.empty(), Optional.empty(),
            new Modes("full-access", "default"), Optional.empty(), false, true,
            List.of("preview", "project.work.read", "project.work.write", "wiki.read", "wiki.write", "orchestration"));

    /** tools/call wiki_write: allowed, with the wikiPath obligation {@code agents/a1/notes/page.md}. */
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

    /** An embedded PDP on {@link #bundle()} with {@code poolMax} instances, checked healthy. */
    static EmbeddedPdp pdp(int poolMax) {
        EmbeddedPdpConfiguration configuration = new EmbeddedPdpConfiguration();
        configuration.setBundlePath(bundle().toString());
        configuration.setPoolMax(poolMax);
        EmbeddedPdp pdp = new EmbeddedPdp(configuration);
        if (!pdp.status().healthy()) {
            throw new IllegalStateException("PDP unhealthy: " + pdp.status());
        }
        return pdp;
    }
}
