package dev.gatehouse.cli;

import dev.gatehouse.review.ReviewException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code gatehouse} — the policy reviewer's CLI. Every answer is the pinned {@code opa} evaluating
 * {@code data.gatehouse.authz.decision} / {@code visible_tools} on a policies directory or a bundle; the CLI knows
 * no rule. Exit codes: 0 fine, 1 a replay mismatch, 2 a usage or setup error.
 */
@Command(name = "gatehouse", mixinStandardHelpOptions = true, version = "gatehouse review CLI 0.1.0",
        description = "Explain, replay, tabulate and diff Gatehouse policy decisions with the pinned opa binary.",
        subcommands = {Explain.class, Replay.class, MatrixCommand.class, Diff.class})
public final class GatehouseCli implements Runnable {

    static final String DECISION = "data.gatehouse.authz.decision";

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
    }

    /** Runs one command line with the given streams; returns the exit code (the tests call this). */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new GatehouseCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("gatehouse: " + (e instanceof ReviewException ? e.getMessage() : e.toString()));
            line.getErr().flush();
            return 2;
        });
        cli.setExitCodeExceptionMapper(e -> 2);
        int rc = cli.execute(args);
        out.flush();
        err.flush();
        return rc;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
