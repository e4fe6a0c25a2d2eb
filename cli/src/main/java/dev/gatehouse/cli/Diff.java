package dev.gatehouse.cli;

import dev.gatehouse.review.Html;
import dev.gatehouse.review.Matrix;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import dev.gatehouse.review.Profiles;
import dev.gatehouse.review.TextFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gatehouse diff}: the cells of the matrix two policies decide differently. */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = "The matrix cells that change between two policies (each a bundle .tar.gz or a policies"
                + " directory), as a table; exit 0 whatever changed.")
final class Diff implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--from", required = true, paramLabel = "A") String from;

    @Option(names = "--to", required = true, paramLabel = "B") String to;

    @Option(names = "--profiles", paramLabel = "FILE", description = "caller profiles (default: " + Defaults.PROFILES + ")")
    Path profiles;

    @Option(names = "--out", paramLabel = "diff.html", description = "also write the changes as HTML")
    Path out;

    @Option(names = "--opa", paramLabel = "PATH") String opaPath;

    @Override
    public Integer call() {
        PrintWriter w = spec.commandLine().getOut();
        Opa opa = Opa.locate(opaPath);
        Profiles profilesFile = Profiles.load(profiles != null ? profiles : Defaults.profiles());
        Matrix a;
        Matrix b;
        try (PolicySource pa = PolicySource.parse(from); PolicySource pb = PolicySource.parse(to)) {
            a = Matrix.compute(opa, pa, profilesFile);
            b = Matrix.compute(opa, pb, profilesFile);
        }
        List<Matrix.Change> changes = Matrix.changes(a, b);
        if (out != null) { // first: a page that cannot be written is the one line said, not after the table
            TextFile.write(out, Html.diffPage(a, b, changes));
        }
        w.println("from " + a.label() + " @ " + a.revision());
        w.println("to   " + b.label() + " @ " + b.revision());
        if (changes.isEmpty()) {
            w.println("no cell changes (" + a.profiles().size() + " profiles × " + b.tools().size() + " tools)");
        } else {
            w.println(changes.size() + " changed cell(s):");
            int pw = "profile".length();
            int tw = "tool".length();
            int fw = "from".length();
            for (Matrix.Change c : changes) {
                pw = Math.max(pw, c.profile().length());
                tw = Math.max(tw, c.tool().length());
                fw = Math.max(fw, c.before().length());
            }
            String fmt = "%-" + pw + "s | %-" + tw + "s | %-" + fw + "s | %s%n";
            w.printf(fmt, "profile", "tool", "from", "to");
            w.println("-".repeat(pw) + "-+-" + "-".repeat(tw) + "-+-" + "-".repeat(fw) + "-+-" + "-".repeat(8));
            for (Matrix.Change c : changes) {
                w.printf(fmt, c.profile(), c.tool(), c.before(), c.after());
            }
        }
        if (out != null) {
            w.println("wrote " + out);
        }
        return 0;
    }
}
