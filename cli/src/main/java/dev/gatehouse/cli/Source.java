package dev.gatehouse.cli;

import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import dev.gatehouse.review.ReviewException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the policy comes from, and which opa runs it. */
final class Source {
    @Option(names = "--bundle", paramLabel = "BUNDLE.tar.gz",
            description = "a Rego policy bundle (make bundle: target/bundle/rego-bundle.tar.gz)")
    Path bundle;

    @Option(names = "--policies", paramLabel = "DIR", description = "a policies directory (default: the checkout's policies/)")
    Path policies;

    @Option(names = "--opa", paramLabel = "PATH",
            description = "the opa binary (default: $GATEHOUSE_OPA, else ~/.cache/gatehouse/opa-" + Opa.PINNED + "/opa)")
    String opa;

    /** {@code --bundle} or {@code --policies}, not both; neither means the checkout's policies/. */
    PolicySource open() {
        if (bundle != null && policies != null) {
            throw new ReviewException("give --bundle or --policies, not both");
        }
        return bundle != null ? PolicySource.bundle(bundle)
                : PolicySource.directory(policies != null ? policies : Defaults.policies());
    }

    Opa opa() {
        return Opa.locate(opa);
    }
}
