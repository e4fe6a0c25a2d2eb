package dev.gatehouse.cli;

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

    PolicySource open() {
        return PolicySource.of(bundle, policies);
    }

    Opa opa() {
        return Opa.locate(opa);
    }
}
