package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.facts.ArgumentCheck;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.gateway.support.PolicySources;
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
