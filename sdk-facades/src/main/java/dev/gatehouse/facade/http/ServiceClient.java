package dev.gatehouse.facade.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.net.URIAuthority;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * One service's HTTP transport: adds the Bearer credential, enforces the endpoint's deadline on the whole
 * exchange, and reports the outcome as a {@link Reply} without interpreting it. Never throws: any failure of
 * the client after the connection was made is {@link Reply.Broken}. Reads are sent again once when the connection
 * was refused (nothing was sent), within the same deadline; mutations never are. One call, read or mutation, never
 * waits longer than the endpoint's deadline.
 *
 * <p>The exchange runs on the calling thread with blocking I/O (Apache HttpClient 5's classic minimal client) over
 * pooled HTTP/1.1 keep-alive connections ({@value #MAX_CONNECTIONS} at most per service, TCP_NODELAY): the caller
 * writes the request and the kernel wakes it when the answer arrives, with no hand-off to an event-loop thread and
 * back (docs/design.md, "Dependency pins", for the measurement). Nothing is retried by the library.
 */
public final class ServiceClient implements AutoCloseable {

    /** Response header naming the contract generation; see schemas/services/README.md. */
    public static final String API_VERSION_HEADER = "Api-Version";
    /** Response header a service may set on a mutation to name the operation it started. */
    public static final String OPERATION_ID_HEADER = "Operation-Id";
    /** The largest answer body accepted, in bytes (10 MiB); a longer one is {@link Reply.Broken}. */
    static final int MAX_BODY_BYTES = 10 * 1024 * 1024;
    /** Pooled connections per service: above the server's worker threads, so a call never waits for a lease. */
    static final int MAX_CONNECTIONS = 256;
    /** The longest status or header line accepted, in bytes; a longer one is {@link Reply.Broken}. */
    static final int MAX_LINE_BYTES = 8 * 1024;
    /** The most header lines accepted in one answer; more are {@link Reply.Broken}. */
    static final int MAX_HEADERS = 100;
    /** The longest a pooled connection is used, in minutes, however busy. */
    static final int CONNECTION_MINUTES = 3;

    /**
     * Ends exchanges at their deadline (one daemon thread for all clients): blocking reads only know a per-read
     * timeout, and a body trickling in must still end at the deadline.
     */
    private static final ScheduledThreadPoolExecutor DEADLINES = deadlines();

    private final ServiceEndpoint endpoint;
    private final String base;
    /**
     * The {@code Host} header of every request, written as the client would write it from the target's authority
     * (host and port, never user info) but once, not on every exchange.
     */
    private final String host;
    /** The service's scheme, host and port, which the minimal client does not read from each request's URI. */
    private final HttpHost target;
    private final CloseableHttpClient http;
    /** Each request's own: the minimal client takes no default configuration. */
    private final RequestConfig config;
    private final ExchangeObserver observer;
    private final CredentialSource credentials;

    /**
     * @param endpoint the service's configured endpoint; its URL must be present
     * @throws IllegalArgumentException when the endpoint has no usable URL
     */
    public ServiceClient(ServiceEndpoint endpoint) {
        this(endpoint, ExchangeObserver.NONE);
    }

    /**
     * @param endpoint the service's configured endpoint; its URL must be present
     * @param observer sees every exchange (metrics, traces)
     * @throws IllegalArgumentException when the endpoint has no usable URL
     */
    public ServiceClient(ServiceEndpoint endpoint, ExchangeObserver observer) {
        this(endpoint, observer, CredentialSource.CONFIGURED);
    }

    /**
     * @param endpoint    the service's configured endpoint; its URL must be present
     * @param observer    sees every exchange (metrics, traces)
     * @param credentials asked for the credential before every exchange; when it has none, the endpoint's configured
     *                    credential is sent
     * @throws IllegalArgumentException when the endpoint has no usable URL
     */
    public ServiceClient(ServiceEndpoint endpoint, ExchangeObserver observer, CredentialSource credentials) {
        this.endpoint = endpoint;
        this.observer = observer;
        this.credentials = credentials;
        URI url = endpoint.getUrl().orElseThrow(() -> new IllegalArgumentException(endpoint.getName()
                + " has no url"));
        if (url.getScheme() == null || url.getHost() == null
                || !(url.getScheme().equals("http") || url.getScheme().equals("https"))) {
            throw new IllegalArgumentException(endpoint.getName() + " has an unusable url");
        }
        String text = url.toString();
        this.base = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
        this.host = new URIAuthority(url.getHost(), url.getPort()).toString();
        this.target = new HttpHost(url.getScheme(), url.getHost(), url.getPort());
        Duration deadline = endpoint.getDeadline();
        // Connecting, and waiting for a pooled connection, get nine tenths of the deadline, so that a connection
        // still not had ends as such (nothing sent: Refused) and not as the deadline firing at the same instant
        // (TimedOut, which a mutation must report as uncertain).
        Timeout beforeSending = Timeout.of(deadline.multipliedBy(9).dividedBy(10));
        PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setConnectionFactory(ManagedHttpClientConnectionFactory.builder()
                        .http1Config(Http1Config.custom()
                                .setMaxLineLength(MAX_LINE_BYTES)
                                .setMaxHeaderCount(MAX_HEADERS)
                                .build())
                        .build())
                .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
                .setMaxConnTotal(MAX_CONNECTIONS)
                .setMaxConnPerRoute(MAX_CONNECTIONS)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(beforeSending)
                        .setSocketTimeout(Timeout.of(deadline))
                        // A connection idle for a second is checked before reuse, so one the service closed
                        // meanwhile is not used for a request that would then break.
                        .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                        // No connection lives longer than the full client let one idle (its default keep-alive of
                        // 3 minutes): one a middlebox dropped without a word is not kept for ever.
                        .setTimeToLive(TimeValue.ofMinutes(CONNECTION_MINUTES))
                        .build())
                .build();
        this.config = RequestConfig.custom()
                .setResponseTimeout(Timeout.of(deadline))
                .setConnectionRequestTimeout(beforeSending)
                .build();
        // The minimal client: the connection pool, the request's framing headers, and nothing else. The full client's
        // exec chain (redirects, retries, authentication and its cache, cookies, proxies, compression) has nothing to
        // do for a service exchange, yet it rebuilt each request's URI for its authentication cache on every call:
        // 4.6 % of a memo-answered call's samples in a profile (bench/notes.md, 2026-12-04). Statuses are answers to
        // interpret, and the retry rule is this class's (reads once more when refused, mutations never). It reads no
        // Keep-Alive header: the check of a connection idle for a second, above, is what finds one the service
        // closed, and the time to live bounds the rest.
        this.http = HttpClients.createMinimal(pool);
    }

    /** The service name, e.g. {@code wiki}, for messages. */
    public String service() {
        return endpoint.getName();
    }

    /** The whole-call deadline. */
    public Duration deadline() {
        return endpoint.getDeadline();
    }

    /**
     * Sends a read; once more if the first connection was refused at once (a connect timeout is not retried). Both
     * tries share the one deadline: the second gets only what the first left, so a read never waits longer than
     * {@link #deadline()} in all.
     */
    public Reply read(Supplier<ServiceRequest> request) {
        long budget = endpoint.getDeadline().toNanos();
        long started = System.nanoTime();
        Reply first = send(request.get(), budget);
        long left = budget - (System.nanoTime() - started);
        return first instanceof Reply.Refused refused && refused.retryable() && left > 0
                ? send(request.get(), left) : first;
    }

    /** Sends a mutation exactly once, within {@link #deadline()}. */
    public Reply mutate(ServiceRequest request) {
        return send(request, endpoint.getDeadline().toNanos());
    }

    /**
     * Sends a mutation exactly once, within {@link #deadline()}, with header {@code Idempotency-Key: key}
     * ({@link Requests#IDEMPOTENCY_HEADER}).
     */
    public Reply mutate(ServiceRequest request, IdempotencyKey key) {
        return mutate(request.header(Requests.IDEMPOTENCY_HEADER, key.value()));
    }

    private Reply send(ServiceRequest request, long budgetNanos) {
        credentials.credential(endpoint.getName()).or(endpoint::currentCredential).ifPresent(credential -> request.header(HttpHeaders.AUTHORIZATION, "Bearer " + credential));
        ExchangeObserver.Exchange exchange = observer.start(endpoint.getName(), request);
        Reply reply = exchange(request, budgetNanos);
        exchange.end(reply);
        return reply;
    }

    private Reply exchange(ServiceRequest request, long budgetNanos) {
        HttpUriRequestBase outgoing;
        try {
            outgoing = outgoing(request);
        } catch (RuntimeException unusable) { // e.g. a path that is not a URI; nothing was sent
            return new Reply.Broken();
        }
        ScheduledFuture<?> deadline = DEADLINES.schedule(outgoing::cancel, budgetNanos, TimeUnit.NANOSECONDS);
        try (ClassicHttpResponse response = http.executeOpen(target, outgoing, null)) {
            HttpEntity entity = response.getEntity();
            if (entity != null && entity.getContentLength() < 0 && !entity.isChunked()) {
                // Ended only by the connection closing: a cut answer (even a head cut short, which the parser takes
                // as ended at the close) would look whole, so it is not taken as one.
                return new Reply.Broken();
            }
            byte[] body = body(entity);
            if (body.length > MAX_BODY_BYTES) {
                return new Reply.Broken(); // closing the unread rest discards the connection
            }
            return new Reply.Answered(response.getCode(),
                    Optional.ofNullable(response.getFirstHeader(HttpHeaders.CONTENT_TYPE)).map(Header::getValue),
                    // Several version headers are as unknown a generation as a wrong one.
                    Optional.of(Arrays.stream(response.getHeaders(API_VERSION_HEADER)).map(Header::getValue)
                            .collect(Collectors.joining(","))).filter(v -> !v.isEmpty()),
                    Optional.ofNullable(response.getFirstHeader(OPERATION_ID_HEADER)).map(Header::getValue),
                    body);
        } catch (IOException | RuntimeException e) {
            return outgoing.isCancelled() ? new Reply.TimedOut() : classify(e);
        } finally {
            deadline.cancel(false);
        }
    }

    /** The request the facade built, as the same request to this service (method, target, headers, body). */
    private HttpUriRequestBase outgoing(ServiceRequest request) {
        HttpUriRequestBase outgoing = new HttpUriRequestBase(request.method(), URI.create(base + request.target()));
        outgoing.setConfig(config);
        for (ServiceRequest.Header header : request.headers()) {
            // The client writes the framing headers itself, from the entity.
            if (!header.name().equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH)
                    && !header.name().equalsIgnoreCase(HttpHeaders.HOST)
                    && !header.name().equalsIgnoreCase(HttpHeaders.TRANSFER_ENCODING)) {
                outgoing.addHeader(header.name(), header.value());
            }
        }
        outgoing.addHeader(HttpHeaders.HOST, host);
        request.body().ifPresent(bytes -> outgoing.setEntity(new ByteArrayEntity(bytes, null)));
        return outgoing;
    }

    /**
     * Reads at most one byte past the limit, so an over-long body is seen without reading all of it. A declared
     * length within the limit is read into one array of that length (the client ends the stream there; reading in
     * 8 KiB pieces cost a buffer and a copy per exchange); anything past it is still read, up to the limit.
     */
    private static byte[] body(HttpEntity entity) throws IOException {
        if (entity == null) {
            return new byte[0];
        }
        try (InputStream in = entity.getContent()) {
            long declared = entity.getContentLength();
            if (declared < 0 || declared > MAX_BODY_BYTES) {
                return in.readNBytes(MAX_BODY_BYTES + 1);
            }
            byte[] body = new byte[(int) declared];
            int read = in.readNBytes(body, 0, body.length);
            if (read < body.length) {
                return Arrays.copyOf(body, read);
            }
            int next = in.read(); // a probe, not readNBytes: that allocates its 8 KiB piece before it sees the end
            if (next == -1) {
                return body;
            }
            byte[] rest = in.readNBytes(MAX_BODY_BYTES - body.length);
            byte[] whole = Arrays.copyOf(body, body.length + 1 + rest.length);
            whole[body.length] = (byte) next;
            System.arraycopy(rest, 0, whole, body.length + 1, rest.length);
            return whole;
        }
    }

    private static Reply classify(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            // Not connected in time, or no pooled connection free in time: nothing was sent.
            if (t instanceof ConnectTimeoutException || t instanceof ConnectionRequestTimeoutException) {
                return new Reply.Refused(false);
            }
            if (t instanceof ConnectException) {
                return new Reply.Refused(true);
            }
            if (t instanceof SocketTimeoutException) {
                return new Reply.TimedOut();
            }
        }
        return new Reply.Broken();
    }

    private static ScheduledThreadPoolExecutor deadlines() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "gatehouse-facade-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    @Override
    public void close() {
        http.close(CloseMode.IMMEDIATE);
    }
}
