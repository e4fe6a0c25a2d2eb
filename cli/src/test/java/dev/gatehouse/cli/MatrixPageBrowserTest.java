package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The matrix page in a real browser: headless Chromium (Debian's package; scripts/ensure-chromium.sh installs it
 * when missing) renders it, the rendered DOM has one cell per profile × tool, and a screenshot is kept at
 * cli/target/matrix.png for a human look.
 */
class MatrixPageBrowserTest {

    static Path page;

    @BeforeAll
    static void setUp() throws Exception {
        Repo.exec(List.of(Repo.ROOT.resolve("scripts/ensure-chromium.sh").toString()));
        page = Repo.target().resolve("matrix.html");
        Repo.Result r = Repo.cli("matrix", "--out", page.toString(), "--policies", Repo.POLICIES.toString());
        assertEquals(0, r.rc(), r.err());
    }

    private static List<String> chromium(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + Files.createTempDirectory(Repo.target(), "chromium-profile-")));
        command.addAll(List.of(args));
        command.add(page.toUri().toString());
        return command;
    }

    @Test
    void rendersOneCellPerProfileAndTool() throws Exception {
        Process p = new ProcessBuilder(chromium("--dump-dom")).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String dom = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor());
        long cells = Pattern.compile("<td class=\"cell (allow|deny|undefined)\"").matcher(dom).results().count();
        assertEquals((long) MatrixTest.profiles() * MatrixTest.tools(), cells);
        assertTrue(dom.contains("✔ ALLOW") || dom.contains("✘ DENY"));
    }

    @Test
    void writesAScreenshot() throws Exception {
        Path png = Repo.target().resolve("matrix.png");
        Files.deleteIfExists(png);
        Repo.exec(chromium("--screenshot=" + png, "--window-size=1600,1200"));
        assertTrue(Files.size(png) > 10_000, "a screenshot of the page at " + png);
        byte[] magic = Files.readAllBytes(png);
        assertEquals((byte) 0x89, magic[0]);
        assertEquals('P', magic[1]);
    }
}
