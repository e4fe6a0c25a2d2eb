package dev.gatehouse.facade.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micronaut.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A service request as the facades build it: what it holds, and a header value that could start a line refused. */
class ServiceRequestTest {

    @Test
    void holdsTheMethodTargetHeadersInOrderAndBody() {
        ServiceRequest request = Requests.json(HttpMethod.PUT, "/wiki/v1/pages?path=" + Requests.query("a/b c.md"),
                Map.of("k", "v")).header(Requests.AGENT_HEADER, "a1").header(Requests.AGENT_HEADER, "a2");

        assertEquals("PUT", request.method());
        assertEquals("/wiki/v1/pages?path=a%2Fb+c.md", request.target());
        assertEquals("/wiki/v1/pages", request.path());
        assertEquals(List.of(new ServiceRequest.Header("Content-Type", "application/json"),
                new ServiceRequest.Header("Accept", "application/json"),
                new ServiceRequest.Header(Requests.AGENT_HEADER, "a1"),
                new ServiceRequest.Header(Requests.AGENT_HEADER, "a2")), request.headers());
        assertEquals("{\"k\":\"v\"}", new String(request.body().orElseThrow(), StandardCharsets.UTF_8));
        assertEquals("/x", Requests.get("/x").path());
        assertEquals(java.util.Optional.empty(), Requests.delete("/x?y=1").body());
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u0000b", "a\u001fb", "a\u007fb", "\u000b"})
    void aHeaderValueWithAControlCharacterIsRefusedAndNotAdded(String value) {
        ServiceRequest request = Requests.get("/x");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> request.header(Requests.THREAD_HEADER, value));
        assertEquals("header " + Requests.THREAD_HEADER + " holds a control character", refused.getMessage());
        assertEquals(1, request.headers().size(), "only Accept");
    }

    @Test
    void aTabAndNonAsciiTextAreKept() {
        assertEquals("a\tb é", Requests.get("/x").header("X-Note", "a\tb é").headers().get(1).value());
    }
}
