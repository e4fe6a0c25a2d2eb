package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.facts.ArgumentCheck;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.gateway.support.PolicySources;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Public-failures row 15: closed schemas are enforced, and violations become facts without argument values. */
class ClosedSchemaArgumentCheckTest {

    private final ArgumentCheck.Validator wikiRead = new ClosedSchemaArgumentCheck().compile(
            PolicySources.schema("wiki_read"));

    @Test
    void validArgumentsHaveNoErrors() {
        assertEquals(List.of(), wikiRead.check(Map.of("path", "page.md")));
    }

    @Test
    void unknownAndIdentityKeysAreNamedWithoutTheirValues() {
        List<ArgumentError> errors = wikiRead.check(Map.of("path", "page.md", "agentId", "SECRET-a2"));
        assertEquals(1, errors.size());
        ArgumentError error = errors.get(0);
        assertEquals("additionalProperties", error.keyword());
        assertEquals(Optional.of("agentId"), error.property());
        assertEquals("", error.instanceLocation());
        assertFalse(error.message().contains("SECRET"));
    }

    /**
     * A broken bound names the schema's number, so the caller learns the limit (a new user's trial: "does not satisfy
     * 'maxLength'" did not say 8448), and never the value sent; a keyword without a number adds nothing.
     */
    @Test
    void aBrokenBoundSaysTheSchemasNumberAndNotTheValue() {
        ArgumentCheck.Validator preferences = new ClosedSchemaArgumentCheck().compile(PolicySources.schema(
                "t3_environment_preferences_update"));
        List<ArgumentError> over = preferences.check(Map.of("preferences", Map.of("autoArchiveDays", 987654)));
        assertTrue(over.stream().anyMatch(e -> e.message().equals("arguments/preferences/autoArchiveDays: does not"
                + " satisfy 'maximum' (3650)")), over.toString());
        assertFalse(over.toString().contains("987654"), over.toString());
        String path = "x".repeat(9000);
        List<ArgumentError> tooLong = wikiRead.check(Map.of("path", path));
        assertTrue(tooLong.stream().anyMatch(e -> e.keyword().equals("maxLength")
                && e.message().matches("arguments/path: does not satisfy 'maxLength' \\(\\d+\\)")), tooLong.toString());
        assertTrue(wikiRead.check(Map.of("path", 7)).stream().anyMatch(e -> e.message().equals(
                "arguments/path: does not satisfy 'type'")));
    }

    @Test
    void wrongTypesArraysAndMissingMembersAreErrors() {
        assertTrue(wikiRead.check(Map.of("path", List.of("page.md", "../a2/secret.md"))).stream()
                .anyMatch(e -> e.keyword().equals("type") && e.instanceLocation().equals("/path")));
        assertTrue(wikiRead.check(Map.of("path", Map.of("$ref", "x"))).stream()
                .anyMatch(e -> e.keyword().equals("type")));
        assertTrue(wikiRead.check(Map.of()).stream()
                .anyMatch(e -> e.keyword().equals("required") && e.property().equals(Optional.of("path"))));
        assertTrue(wikiRead.check("page.md").stream().anyMatch(e -> e.keyword().equals("type")));
        assertTrue(wikiRead.check(List.of("page.md")).stream().anyMatch(e -> e.keyword().equals("type")));
    }

    /**
     * An integer argument's bounds hold for every way of writing a number (a new user's trial found
     * {@code "autoArchiveDays": 1e2147483647} allowed and sent to the host; json-schema-validator 2.0.8 compares an
     * integral decimal through a {@code long} that wraps): generated mantissas and exponents against
     * {@code {"type": "integer", "minimum": 0, "maximum": 3650}}, each checked against the exact answer.
     */
    @Test
    void integerBoundsHoldForEveryWayOfWritingANumber() {
        ArgumentCheck.Validator preferences = new ClosedSchemaArgumentCheck().compile(PolicySources.schema(
                "t3_environment_preferences_update"));
        BigDecimal max = BigDecimal.valueOf(3650);
        int checked = 0;
        for (String mantissa : List.of("1", "-1", "3.65", "36.5", "3.651", "1.5", "9.99", "0", "-0.0", "18446744073709551616",
                "9223372036854775807", "0.0001")) {
            for (int exponent = -5; exponent <= 400; exponent += exponent < 70 ? 1 : 33) {
                BigDecimal value = new BigDecimal(mantissa + "e" + exponent);
                boolean valid = value.signum() >= 0 && value.compareTo(max) <= 0
                        && value.stripTrailingZeros().scale() <= 0;
                List<ArgumentError> errors = preferences.check(Map.of("preferences", Map.of("autoArchiveDays", value)));
                assertEquals(valid, errors.isEmpty(), value + ": " + errors);
                errors.forEach(e -> assertEquals("/preferences/autoArchiveDays", e.instanceLocation(), value + ""));
                checked++;
            }
        }
        assertTrue(checked > 900, "generated " + checked);
        List<ArgumentError> tooLong = preferences.check(Map.of("preferences", Map.of("autoArchiveDays",
                new BigDecimal("1e2147483647"))));
        assertEquals(List.of("type"), tooLong.stream().map(ArgumentError::keyword).toList(), tooLong.toString());
        assertTrue(tooLong.get(0).message().contains("more than 1000 digits"), tooLong.toString());
    }

    /**
     * A preview opens only http and https URLs written in RFC 3986's characters (found by new users' trials:
     * {@code javascript:} and {@code file:} URLs were opened, then URLs with Unicode white space or controls): every
     * other scheme, however it is spelt, and every other character is a {@code pattern} error at {@code /url}.
     */
    @Test
    void aPreviewOpensOnlyHttpAndHttpsUrls() {
        ArgumentCheck.Validator previewOpen = new ClosedSchemaArgumentCheck().compile(PolicySources.schema(
                "preview_open"));
        for (String url : List.of("http://127.0.0.1:3000/", "https://example.test/a?b=c#d", "HTTP://localhost/",
                "hTtPs://x", "http://[::1]:3000/p%C3%A9?q=a+b&r=(1)*;x=y@z~!$'", "https://xn--e1afmkfd.example/")) {
            assertEquals(List.of(), previewOpen.check(Map.of("url", url)), url);
        }
        for (String url : List.of("javascript:alert(1)", "JavaScript:alert(1)", "file:///etc/passwd", "data:text/html,x",
                "vbscript:x", "ftp://example.test/", "//example.test/", " http://x", "http://x y", "http://",
                "http:/x", "\thttp://x", "http://x\n", "blob:http://x/1", "view-source:http://x",
                // Unicode white space, controls and invisible characters (found by the next trial: \\s was ASCII)
                "http://127.0.0.1:3000/\u00a0x", "http://a\u2028javascript:alert(1)", "https://a\u3000b",
                "http://a\u0000b", "http://a\u0085b", "http://a\u200bb", "http://a\u202eb", "http://a\ufeffb",
                "http://a\u001fb", "http://a\u007fb", "http://\u00e9.example/", "http://a/\"><script>")) {
            assertTrue(previewOpen.check(Map.of("url", url)).stream()
                    .anyMatch(e -> e.keyword().equals("pattern") && e.instanceLocation().equals("/url")), url);
        }
    }

    /**
     * A pattern anchored with {@code $} must not admit a trailing line break (java.util.regex's {@code $} matches
     * before a final one, ECMA-262's does not): the revisions of {@code project_work_submit} are checked to their
     * end.
     */
    @Test
    void anchoredPatternsAdmitNothingAfterTheirEnd() {
        ArgumentCheck.Validator submit = new ClosedSchemaArgumentCheck().compile(PolicySources.schema(
                "project_work_submit"));
        for (String member : List.of("runRevision", "assignmentRevision")) {
            String valid = member.equals("runRevision") ? "run:4" : "position:2";
            for (String suffix : List.of("\n", "\r\n", "\r", "\u2028", "\u0085", " ")) {
                Map<String, Object> arguments = new java.util.HashMap<>(Map.of("runId", "r1", "runRevision", "run:4",
                        "assignmentRevision", "position:2", "result", Map.of()));
                arguments.put(member, valid + suffix);
                assertTrue(submit.check(arguments).stream().anyMatch(e -> e.keyword().equals("pattern")
                        && e.instanceLocation().equals("/" + member)), member + " + " + suffix.codePointAt(0));
            }
        }
    }
}
