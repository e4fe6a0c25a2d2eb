package dev.gatehouse.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * A setting nobody reads is ignored without a word, so a test that sets one proves nothing (a test once set
 * {@code gatehouse.policy.pool-max}, which no class reads, and passed whatever the pool size). Every {@code gatehouse.*}
 * key a test, {@code application.yml} or a start-up script sets must be a key the code reads: one of the generated
 * configuration metadata ({@code @ConfigurationProperties}, every module), a key named in main code
 * ({@code @Requires(property = ...)}, {@code @Value}), or a system property a test or tool reads itself
 * ({@code System.getProperty} and the like, surefire's {@code systemPropertyVariables}).
 */
class ConfigurationKeysTest {

    private static final Path REPO = Path.of(System.getProperty("gatehouse.repo.dir", "..")).toAbsolutePath()
            .normalize();
    private static final Pattern LITERAL = Pattern.compile("\"(gatehouse(?:\\.[a-z0-9-]+)+)\"");
    private static final Pattern READ_AS_SYSTEM_PROPERTY = Pattern.compile(
            "(?:getProperty|getInteger|getLong|getBoolean|named\\s*=)\\s*\\(?\\s*\"(gatehouse(?:\\.[a-z0-9-]+)+)\"");
    private static final Pattern POM_SYSTEM_PROPERTY = Pattern.compile("<(gatehouse(?:\\.[a-z0-9-]+)+)>");
    private static final Pattern SCRIPT_PROPERTY = Pattern.compile("-D(gatehouse(?:\\.[a-z0-9-]+)+)=");

    @Test
    void everyKeySetByATestIsReadByTheCode() {
        Known known = known();
        Map<String, Set<String>> unknown = new TreeMap<>();
        for (Path file : files("src/test/java", ".java")) {
            for (String key : matches(LITERAL, read(file))) {
                if (!known.configuration(key) && !known.systemProperties.contains(key)) {
                    unknown.computeIfAbsent(key, k -> new TreeSet<>()).add(REPO.relativize(file).toString());
                }
            }
        }
        assertEquals(Map.of(), unknown, "keys no code reads (a misspelt or removed setting)");
    }

    @Test
    void everyKeyOfApplicationYmlAndTheStartScriptsIsReadByTheCode() {
        Known known = known();
        Set<String> unknown = new TreeSet<>();
        for (Path file : files("src/main/resources", ".yml")) {
            flatten("", new Yaml().load(read(file)), key -> {
                if (key.startsWith("gatehouse.") && !known.configuration(key)) {
                    unknown.add(REPO.relativize(file) + ": " + key);
                }
            });
        }
        try (Stream<Path> scripts = Files.walk(REPO.resolve("scripts"))) {
            scripts.filter(file -> file.toString().endsWith(".sh")).forEach(file -> {
                for (String key : matches(SCRIPT_PROPERTY, read(file))) {
                    if (!known.configuration(key) && !known.systemProperties.contains(key)) {
                        unknown.add(REPO.relativize(file) + ": " + key);
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertEquals(Set.of(), unknown, "keys no code reads");
    }

    /** The check itself: it knows the real key and refuses the one the pool-size test once set. */
    @Test
    void theCheckTellsARealKeyFromAMisspeltOne() {
        Known known = known();
        assertTrue(known.configuration("gatehouse.policy.pool-size"));
        assertTrue(known.configuration("gatehouse.services.wiki.deadline"), "a wildcard of the metadata");
        assertTrue(known.configuration("gatehouse.policy.engine"), "named in @Requires");
        String misspelt = "gatehouse.policy." + "pool-max"; // not one literal, or this file would fail the check
        assertFalse(known.configuration(misspelt));
        assertFalse(known.systemProperties.contains(misspelt));
        assertTrue(known.systemProperties.contains("gatehouse.differential.count"));
    }

    /** What the code reads: configuration keys (exact or metadata patterns) and system properties. */
    private record Known(Set<String> keys, List<Pattern> patterns, Set<String> systemProperties) {

        boolean configuration(String key) {
            return keys.contains(key) || patterns.stream().anyMatch(p -> p.matcher(key).matches());
        }
    }

    private static Known known() {
        Set<String> keys = new TreeSet<>();
        List<Pattern> patterns = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (Path metadata : modules().map(m -> m.resolve("target/classes/META-INF/spring-configuration-metadata.json"))
                .filter(Files::isRegularFile).toList()) {
            try {
                for (JsonNode property : json.readTree(metadata.toFile()).path("properties")) {
                    String name = property.path("name").asText();
                    if (name.contains("*")) {
                        patterns.add(Pattern.compile(Pattern.quote(name).replace("*", "\\E[^.]+\\Q")));
                    } else {
                        keys.add(name);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertTrue(keys.contains("gatehouse.policy.bundle-path"), "the gateway's metadata was read: build it first");
        Set<String> systemProperties = new TreeSet<>();
        for (Path file : files("src/main/java", ".java")) {
            keys.addAll(matches(LITERAL, read(file)));
        }
        for (Path file : Stream.concat(files("src/main/java", ".java").stream(), files("src/test/java", ".java")
                .stream()).toList()) {
            systemProperties.addAll(matches(READ_AS_SYSTEM_PROPERTY, read(file)));
        }
        modules().map(m -> m.resolve("pom.xml")).filter(Files::isRegularFile)
                .forEach(pom -> systemProperties.addAll(matches(POM_SYSTEM_PROPERTY, read(pom))));
        return new Known(keys, patterns, systemProperties);
    }

    private static Stream<Path> modules() {
        try (Stream<Path> children = Files.list(REPO)) {
            return children.filter(dir -> Files.isRegularFile(dir.resolve("pom.xml"))).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every file under {@code <module>/<under>} ending in {@code suffix}, over all modules. */
    private static List<Path> files(String under, String suffix) {
        return modules().map(m -> m.resolve(under)).filter(Files::isDirectory).flatMap(dir -> {
            try (Stream<Path> walk = Files.walk(dir)) {
                return walk.filter(file -> file.toString().endsWith(suffix)).toList().stream();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    private static Set<String> matches(Pattern pattern, String text) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Calls {@code sink} with the dotted path of every leaf of a parsed YAML document. */
    private static void flatten(String prefix, Object node, Consumer<String> sink) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> flatten(prefix.isEmpty() ? key.toString() : prefix + "." + key, value, sink));
        } else {
            sink.accept(prefix);
        }
    }
}
