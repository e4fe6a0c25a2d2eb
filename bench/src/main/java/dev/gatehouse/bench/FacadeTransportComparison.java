package dev.gatehouse.bench;

import dev.gatehouse.facade.http.Reply;
import dev.gatehouse.facade.http.Requests;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.ServiceEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The facades' transport ({@link ServiceClient}, on Apache HttpClient 5's classic API: blocking I/O on the calling
 * thread) against the clients it could run on instead: the Micronaut HTTP client as the facades used it before
 * ({@code toBlocking().exchange}, its event loop doing the I/O), the JDK's {@link HttpClient} ({@code send}, its
 * selector thread doing the I/O) and the JDK's {@code HttpURLConnection} (blocking, on the calling thread). The same
 * read ({@code GET /project/v1/projects/ps-demo/agents/a1/work}, credential and agent header) is sent to a running,
 * seeded local-services. The three alternatives do less than the facade (no request conversion, no observer), so
 * each is a lower bound of its library. They alternate in rounds within one process; round 0 is warm-up. Prints
 * p50/p90 in µs and exchanges/s per round (docs/design.md, "Dependency pins").
 *
 * <p>Usage: {@code java -cp <bench classpath> dev.gatehouse.bench.FacadeTransportComparison <local-services url>
 * <credential> [requests per round, 3000] [concurrency, 1] [rounds, 4]}
 */
public final class FacadeTransportComparison {

    private static final String PATH = "/project/v1/projects/ps-demo/agents/a1/work";
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private FacadeTransportComparison() {
    }

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        String credential = args[1];
        int requests = args.length > 2 ? Integer.parseInt(args[2]) : 3000;
        int concurrency = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 4;
        ExecutorService callers = Executors.newFixedThreadPool(concurrency);
        HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(DEADLINE).executor(Runnable::run).build();
        HttpRequest read = HttpRequest.newBuilder(URI.create(url + PATH)).timeout(DEADLINE)
                .header("Authorization", "Bearer " + credential).header(Requests.AGENT_HEADER, "a1")
                .header("Accept", "application/json").GET().build();
        io.micronaut.http.client.DefaultHttpClientConfiguration config =
                new io.micronaut.http.client.DefaultHttpClientConfiguration();
        config.setReadTimeout(DEADLINE);
        config.setExceptionOnErrorStatus(false);
        config.setFollowRedirects(false);
        try (ServiceClient facade = new ServiceClient(ServiceEndpoint.of("project", url, credential, DEADLINE));
                io.micronaut.http.client.HttpClient micronaut = io.micronaut.http.client.HttpClient.create(
                        url.toURL(), config)) {
            Map<String, Callable<Integer>> variants = new LinkedHashMap<>();
            variants.put("facade ServiceClient (HttpClient 5)", () -> status(facade.read(() ->
                    Requests.get(PATH).header(Requests.AGENT_HEADER, "a1"))));
            variants.put("Micronaut client, toBlocking().exchange", () -> micronaut.toBlocking().exchange(
                    io.micronaut.http.HttpRequest.GET(PATH).bearerAuth(credential).header(Requests.AGENT_HEADER, "a1")
                            .accept("application/json"), byte[].class).code());
            variants.put("JDK HttpClient, send", () -> jdk.send(read, HttpResponse.BodyHandlers.ofByteArray())
                    .statusCode());
            // Blocking I/O on the calling thread (JDK keep-alive cache): no hand-off to a selector thread.
            variants.put("JDK HttpURLConnection (caller's thread)", () -> urlConnection(url, credential));
            for (int round = 0; round < rounds; round++) {
                for (Map.Entry<String, Callable<Integer>> variant : variants.entrySet()) {
                    long[] nanos = new long[requests];
                    long wall = run(callers, concurrency, variant.getValue(), nanos);
                    Arrays.sort(nanos);
                    System.out.printf("round %d%s c%d %-42s p50 %7.1f µs  p90 %7.1f µs  %7.0f/s%n", round,
                            round == 0 ? " (warm-up)" : "", concurrency, variant.getKey(),
                            nanos[requests / 2] / 1e3, nanos[requests * 9 / 10] / 1e3, requests * 1e9 / wall);
                }
            }
        } finally {
            callers.shutdownNow();
        }
    }

    /** Sends {@code nanos.length} exchanges from {@code concurrency} threads, timing each; returns the wall time. */
    private static long run(ExecutorService callers, int concurrency, Callable<Integer> exchange, long[] nanos)
            throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        long start = System.nanoTime();
        for (int w = 0; w < concurrency; w++) {
            workers.add(callers.submit(() -> {
                for (int k; (k = next.getAndIncrement()) < nanos.length; ) {
                    long t0 = System.nanoTime();
                    int status = exchange.call();
                    nanos[k] = System.nanoTime() - t0;
                    if (status != 200) {
                        throw new IllegalStateException("the service answered " + status);
                    }
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        return System.nanoTime() - start;
    }

    private static int urlConnection(URI url, String credential) throws java.io.IOException {
        java.net.HttpURLConnection connection = (java.net.HttpURLConnection) URI.create(url + PATH).toURL()
                .openConnection();
        connection.setConnectTimeout((int) DEADLINE.toMillis());
        connection.setReadTimeout((int) DEADLINE.toMillis());
        connection.setInstanceFollowRedirects(false);
        connection.setRequestProperty("Authorization", "Bearer " + credential);
        connection.setRequestProperty(Requests.AGENT_HEADER, "a1");
        connection.setRequestProperty("Accept", "application/json");
        int status = connection.getResponseCode();
        try (var body = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
            body.readAllBytes();
        }
        return status;
    }

    private static int status(Reply reply) {
        return reply instanceof Reply.Answered answered ? answered.status() : -1;
    }
}
