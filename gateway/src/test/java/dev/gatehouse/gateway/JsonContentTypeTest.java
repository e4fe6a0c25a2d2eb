package dev.gatehouse.gateway;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one media-type rule for request bodies, by RFC 9110's grammar (a new user's trial: the admin API refused
 * {@code charset="utf-8"} and a blank before {@code ;}, while {@code /mcp} took {@code application/json; foo=bar}).
 */
class JsonContentTypeTest {

    @Test
    void jsonInUtf8IsDeclaredHoweverTheGrammarSpellsIt() {
        for (String value : List.of("application/json", "Application/JSON", "APPLICATION/JSON;CHARSET=UTF-8",
                "application/json;charset=utf-8", "application/json; charset=utf-8", "application/json;\tCharset=Utf-8",
                // OWS before ";" (RFC 9110 §5.6.6)
                "application/json ; charset=utf-8", "application/json\t;charset=utf-8",
                "application/json \t; \tcharset=utf-8",
                // a quoted-string is the same value as the token (§5.6.6), quoted-pairs undone (§5.6.4)
                "application/json; charset=\"utf-8\"", "application/json;charset=\"UTF-8\"",
                "application/json; charset=\"utf\\-8\"", "application/json; charset=\"\\u\\t\\f\\-\\8\"",
                // empty parameters are grammatical: *( OWS ";" OWS [ parameter ] )
                "application/json;", "application/json ;", "application/json;;", "application/json;;charset=utf-8",
                "application/json; ; charset=utf-8 ;", "application/json;charset=utf-8;",
                // a field value's leading and trailing whitespace is not part of it
                " application/json", "application/json\t", " application/json; charset=utf-8 ")) {
            assertTrue(declared(value), value);
        }
    }

    @Test
    void anotherTypeOrParameterOrCharsetIsNot() {
        for (String value : List.of("text/plain", "text/plain; charset=utf-8", "text/json", "application/xml",
                "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/*", "*/*",
                "application/jsonx", "application/json-seq", "application/problem+json", "application/json-patch+json",
                // another parameter, quoted or not, alone or beside the charset
                "application/json; foo=bar", "application/json; q=1", "application/json; boundary=x",
                "application/json; charset=utf-8; foo=bar", "application/json; foo=\"bar\"; charset=utf-8",
                "application/json; Charset=utf-8; CHARSET=utf-8", "application/json; charset=utf-8; charset=utf-8",
                "application/json; charset=utf-8; charset=latin1",
                // another charset, an alias of UTF-8 that is not its name, none
                "application/json; charset=iso-8859-1", "application/json; charset=utf-16",
                "application/json; charset=utf8", "application/json; charset=\"utf8\"",
                "application/json; charset=no-such-charset", "application/json; charset=", "application/json; charset",
                "application/json; charset=\"\"", "application/json; charset=\" utf-8\"",
                "application/json; charset=\"utf-8 \"")) {
            assertFalse(declared(value), value);
        }
    }

    @Test
    void aValueOutsideTheGrammarIsNot() {
        for (String value : List.of("", " ", "\t", "application", "application/", "/json", "application/ json",
                "application /json", "application/json/x", "application/json charset=utf-8",
                "application/json, text/plain", "application/json; charset=utf-8,", "json", ";;;===",
                // bad quoting
                "application/json; charset=\"utf-8", "application/json; charset=utf-8\"",
                "application/json; charset=\"utf-8\"x", "application/json; charset=\"utf-8\\\"",
                "application/json; charset=\"utf-8\\", "application/json; \"charset\"=utf-8",
                // a parameter without a name, without "=", or with blanks around "="
                "application/json; =utf-8", "application/json; charset =utf-8", "application/json; charset= utf-8",
                // control characters, in the type, between parameters and inside a quoted value
                "application/json\u0000", "application/\u0001json", "application/json;\u0001",
                "application/json; charset=\"utf-8\u0001\"", "application/json; charset=\"utf-8\u007f\"",
                "application/json\r\n; charset=utf-8", "application/json\u000b", "application/json\u00a0",
                // characters beyond Latin-1, quoted or not
                "application/json; charset=\"utf-8\u202e\"", "application/jsoñ", "application\uff0fjson")) {
            assertFalse(declared(value), value);
        }
    }

    @Test
    void exactlyOneFieldLineIsRead() {
        assertFalse(declared(), "none");
        assertFalse(declared("application/json", "application/json"), "the same twice");
        assertFalse(declared("application/json", "text/plain"), "two types");
        assertFalse(declared("text/plain", "application/json"), "the JSON one last");
        assertFalse(declared("application/json", ""), "one empty");
        assertTrue(declared("application/json; charset=\"utf-8\""), "one");
    }

    private static boolean declared(String... fieldLines) {
        return JsonContentType.declared(Collections.enumeration(List.of(fieldLines)));
    }
}
