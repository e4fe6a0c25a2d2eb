package dev.gatehouse.local.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** Plain HTTP to the local services, for what the facades deliberately cannot do (replaying a key, raw bodies). */
final class RawHttp implements AutoCloseable {

    /** One answer: status, body text and the {@code Operation-Id} header. */
    record Answer(int status, String body, Optional<String> operationId) {
    }

    private final URI base;
    private final String credential;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    RawHttp(URI base, String credential) {
        this.base = base;
        this.credential = credential;
    }

    Answer get(String pathAndQuery) {
        return send(request(pathAndQuery).GET().build());
    }

    /** A GET on behalf of {@code agentId} (header {@code Gatehouse-Agent-Id}). */
    Answer get(String pathAndQuery, String agentId) {
        return send(request(pathAndQuery).header("Gatehouse-Agent-Id", agentId).GET().build());
    }

    Answer post(String path, String idempotencyKey, String json) {
        return send(request(path).header("Idempotency-Key", idempotencyKey).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    Answer patch(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(Duration.ofSeconds(5))
                .header("Authorization", "Bearer " + credential);
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body(), response.headers().firstValue("Operation-Id"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        // java.net.http.HttpClient has no close() before Java 21; its threads end with the JVM.
    }
}
