package dev.gatehouse.gateway.policy.embedded;

import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One download from an OPA-compatible bundle service: {@code GET <url>/<resource>} with {@code If-None-Match} (the
 * ETag of the last bundle activated) and the bearer credential, using the JDK HTTP client. Not thread-safe; the
 * watcher uses it from its one thread.
 */
final class BundleServiceClient {

    /** What one poll brought. */
    sealed interface Poll {
        /** 304: the bundle has not changed. */
        record NotModified() implements Poll {
        }

        /** 200 with a complete, readable archive and the response's ETag (empty when it sent none). */
        record Fetched(BundleArchive archive, Optional<String> etag) implements Poll {
        }

        /** Any other status, a transport error, a timeout, or a body that is not a complete bundle. */
        record Failed(String reason) implements Poll {
        }
    }

    private final HttpClient client;
    private final URI uri;
    private final BundleServiceConfiguration configuration;

    BundleServiceClient(BundleServiceConfiguration configuration) {
        this.configuration = configuration;
        String base = configuration.getUrl().orElseThrow();
        this.uri = URI.create((base.endsWith("/") ? base : base + "/") + configuration.getResource()
                .replaceFirst("^/", ""));
        this.client = HttpClient.newBuilder().connectTimeout(configuration.getRequestTimeout())
                .followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    URI uri() {
        return uri;
    }

    Poll poll(Optional<String> etag) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET().timeout(configuration.getRequestTimeout());
        etag.ifPresent(tag -> request.header("If-None-Match", tag));
        try {
            Optional<String> token = credential();
            token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
        } catch (IOException e) {
            return new Poll.Failed("the bundle service credential file cannot be read: " + e.getMessage());
        }
        // The timeout covers the body too: a slow or stalled body fails the poll (the stream is closed, which
        // aborts the exchange) instead of holding the watcher.
        CompletableFuture<HttpResponse<InputStream>> exchange =
                client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        CompletableFuture<Poll> poll = exchange.thenApplyAsync(this::read);
        try {
            return poll.get(configuration.getRequestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            exchange.thenAccept(response -> close(response.body()));
            return new Poll.Failed("GET " + uri + " did not complete within "
                    + configuration.getRequestTimeout().toMillis() + " ms");
        } catch (ExecutionException e) {
            return new Poll.Failed("GET " + uri + " failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Poll.Failed("interrupted");
        }
    }

    private Poll read(HttpResponse<InputStream> response) {
        try (InputStream body = response.body()) {
            if (response.statusCode() == 304) {
                return new Poll.NotModified();
            }
            if (response.statusCode() != 200) {
                return new Poll.Failed("GET " + uri + " answered HTTP " + response.statusCode());
            }
            byte[] bytes = body.readNBytes((int) BundleArchive.MAX_FILE_BYTES + 1);
            return new Poll.Fetched(BundleArchive.parse(bytes, uri.toString()),
                    response.headers().firstValue("ETag"));
        } catch (IOException e) {
            return new Poll.Failed("GET " + uri + ": the body could not be read: " + e);
        } catch (BundleException e) {
            return new Poll.Failed(e.getMessage());
        }
    }

    private static void close(InputStream body) {
        try {
            body.close();
        } catch (IOException ignored) {
            // the exchange is abandoned either way
        }
    }

    private Optional<String> credential() throws IOException {
        Optional<String> file = configuration.getCredentialFile();
        return file.isEmpty() ? Optional.empty() : Optional.of(Files.readString(Path.of(file.get())).trim());
    }
}
