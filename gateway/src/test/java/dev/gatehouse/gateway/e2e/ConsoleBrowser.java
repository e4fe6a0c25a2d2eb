package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One headless Chromium (Debian's chromium and chromium-driver, driven by Selenium, 1280 px wide) for a console browser
 * test class, and what those tests do with it: sign in at local-auth, fill and submit the console's forms, wait, and
 * {@link #look} at a page: axe-core on it (no serious or critical violation) and a full-page screenshot
 * {@code <name>.png} in the class's screenshot folder, which {@link #open} empties of the last run's pictures.
 */
final class ConsoleBrowser implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final WebDriver driver;
    private final Path screenshots;
    private final String axe;
    /** Chromium's profile for this browser, deleted by {@link #close}. */
    private final Path profile;

    private ConsoleBrowser(WebDriver driver, Path screenshots, String axe, Path profile) {
        this.profile = profile;
        this.driver = driver;
        this.screenshots = screenshots;
        this.axe = axe;
    }

    /**
     * Makes sure Chromium and the Node clients (with axe-core) are installed, empties {@code screenshots} of its files
     * (only this run's pictures are reviewed; folders in it are left alone) and starts the browser.
     */
    static ConsoleBrowser open(Path screenshots) throws Exception {
        Path repo = Path.of(System.getProperty("gatehouse.repo.dir", ".."));
        Process ensure = new ProcessBuilder(repo.resolve("scripts/ensure-chromium.sh").toString()).inheritIO().start();
        assertEquals(0, ensure.waitFor(), "chromium and chromedriver");
        NodeClients.install(NodeClients.directory());
        String axe = Files.readString(NodeClients.directory().resolve("node_modules/axe-core/axe.min.js"));
        Files.createDirectories(screenshots);
        try (var old = Files.list(screenshots)) {
            for (Path file : old.filter(Files::isRegularFile).toList()) {
                Files.delete(file);
            }
        }
        Path profile = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "chromium-profile-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(which("chromium"));
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1280,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(Path.of(which("chromedriver")).toFile()).usingAnyFreePort().build();
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        return new ConsoleBrowser(driver, screenshots, axe, profile);
    }

    /**
     * On a failed test, what the browser showed: {@code failed-<test>.png} and {@code .html} (with the address on
     * its first line) in the screenshot folder.
     */
    static TestWatcher failures(Supplier<ConsoleBrowser> browser) {
        return new TestWatcher() {
            @Override
            public void testFailed(ExtensionContext context, Throwable cause) {
                ConsoleBrowser open = browser.get();
                if (open == null) {
                    return;
                }
                try {
                    String name = "failed-" + context.getRequiredTestMethod().getName();
                    Files.write(open.screenshots.resolve(name + ".png"),
                            ((TakesScreenshot) open.driver).getScreenshotAs(OutputType.BYTES));
                    Files.writeString(open.screenshots.resolve(name + ".html"), open.driver.getCurrentUrl() + "\n"
                            + open.driver.getPageSource());
                } catch (Exception | AssertionError e) {
                    cause.addSuppressed(e);
                }
            }
        };
    }

    WebDriver driver() {
        return driver;
    }

    /** Signs in at {@code baseUrl}'s console as {@code user} through local-auth's login form. */
    void signInAs(String baseUrl, String user) {
        driver.get(baseUrl + "/console/sign-in");
        clickAndLoad(driver.findElement(By.linkText("Sign in with the identity provider")));
        driver.findElement(By.name("username")).sendKeys(user);
        clickAndLoad(driver.findElement(By.cssSelector("input[type=submit]")));
    }

    /** The text of the page's {@code <main>}. */
    String main() {
        return driver.findElement(By.tagName("main")).getText();
    }

    /** Types {@code value} into a console form field: {@code f-<id>}, or {@code credential-…} as it is. */
    void fill(String id, String value) {
        WebElement field = driver.findElement(By.id(id.startsWith("credential-") ? id : "f-" + id));
        field.clear();
        field.sendKeys(value);
    }

    void setChecked(String name, boolean on) {
        WebElement box = driver.findElement(By.name(name));
        if (box.isSelected() != on) {
            box.click();
        }
    }

    /** Clicks the submit button {@code css} and returns once the answer's page has loaded. */
    void submit(String css) {
        clickAndLoad(driver.findElement(By.cssSelector(css)));
    }

    /**
     * Clicks {@code target} and waits until the page it was on is gone and the next one has loaded. A form's POST
     * navigates asynchronously, so without this a read right after the click can still see the old page (the
     * stale-edit test read the form instead of the conflict it answered with). The old page is told apart by a mark
     * set on its window, which a new document does not have; the driver's errors while the page changes (a node
     * "not in the document", a script run during unload) only mean "not yet".
     */
    private void clickAndLoad(WebElement target) {
        js("window.gatehouseLeaving = true");
        target.click();
        new WebDriverWait(driver, Duration.ofSeconds(30)).ignoring(WebDriverException.class)
                .until(d -> Boolean.TRUE.equals(((JavascriptExecutor) d).executeScript(
                        "return window.gatehouseLeaving === undefined && document.readyState === 'complete'")));
    }

    void waitFor(ExpectedCondition<?> condition) {
        new WebDriverWait(driver, Duration.ofSeconds(30)).until(condition);
    }

    Object js(String script) {
        return ((JavascriptExecutor) driver).executeScript(script);
    }

    /** axe-core on the page (no serious or critical violation), then a full-page screenshot {@code <name>.png}. */
    void look(String name) throws Exception {
        js(axe);
        String violations = (String) ((JavascriptExecutor) driver).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "axe.run(document, {resultTypes: ['violations']})"
                        + ".then(r => done(JSON.stringify(r.violations)), e => done(JSON.stringify([{impact:"
                        + "'critical', id: 'axe-failed', help: String(e)}])));");
        List<String> serious = new ArrayList<>();
        for (JsonNode violation : JSON.readTree(violations)) {
            String impact = violation.path("impact").asText();
            if (impact.equals("serious") || impact.equals("critical")) {
                serious.add(violation.path("id").asText() + ": " + violation.path("help").asText() + " "
                        + violation.path("nodes").toString());
            }
        }
        long height = ((Number) js("return Math.max(document.body.scrollHeight, 600)")).longValue();
        driver.manage().window().setSize(new Dimension(1280, (int) Math.min(height + 120, 4000)));
        Files.write(screenshots.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        driver.manage().window().setSize(new Dimension(1280, 900));
        assertTrue(serious.isEmpty(), name + ": " + String.join("\n", serious));
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (Stream<Path> files = Files.walk(profile)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    private static String which(String command) {
        for (String dir : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError(command + " is not on PATH (scripts/ensure-chromium.sh installs it)");
    }
}
