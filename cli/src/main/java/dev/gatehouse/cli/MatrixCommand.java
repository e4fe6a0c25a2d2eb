package dev.gatehouse.cli;

import dev.gatehouse.review.Html;
import dev.gatehouse.review.Matrix;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import dev.gatehouse.review.Profiles;
import dev.gatehouse.review.TextFile;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gatehouse matrix}: every tool for every caller profile, as a static HTML page. */
@Command(name = "matrix", mixinStandardHelpOptions = true,
        description = "Caller profiles × tools of the access table → decision, reason codes and obligations,"
                + " as a static HTML page (one opa eval for every cell).")
final class MatrixCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Source source = new Source();

    @Option(names = "--out", required = true, paramLabel = "matrix.html")
    Path out;

    @Option(names = "--profiles", paramLabel = "FILE", description = "caller profiles (default: " + Defaults.PROFILES + ")")
    Path profiles;

    @Override
    public Integer call() {
        Opa opa = source.opa();
        try (PolicySource policy = source.open()) {
            Matrix m = Matrix.compute(opa, policy, Profiles.load(profiles != null ? profiles : Defaults.profiles()));
            TextFile.write(out, Html.matrixPage(m));
            long allowed = m.profiles().stream()
                    .flatMap(p -> m.tools().stream().map(t -> m.cell(p, t)))
                    .filter(Matrix.Cell::allow).count();
            spec.commandLine().getOut().println("wrote " + out + ": " + m.profiles().size() + " profiles × "
                    + m.tools().size() + " tools, " + allowed + " allowed, revision " + m.revision());
        }
        return 0;
    }
}
