package dev.gatehouse.facade.http;

import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.DefaultHttpClientConfiguration;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.ReadTimeoutException;
import io.netty.channel.ConnectTimeoutException;
import java.net.ConnectException;
import java.net.MalformedURLException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One service's HTTP transport: adds the Bearer credential, enforces the endpoint's deadline on the whole
 * exchange, and reports the outcome as a {@link Reply} without interpreting it. Never throws: any failure of
 * the client after the connection was made is {@link Reply.Broken}. Reads are sent again once when the connection
 * was refused (nothing was sent); mutations never are.
 */
public final class ServiceClient implements AutoCloseable {

    /** Response header naming the contract generation; see schemas/services/README.md. */
    public static final String API_VERSION_HEADER = "Api-Version";
    /** Response header a service may set on a mutation to name the operation it started. */
    public static final String OPERATION_ID_HEADER = "Operation-Id";
    /** The largest answer body accepted, in bytes (10 MiB); a longer one is {@link Reply.Broken}. */
    static final int MAX_BODY_BYTES = 10 * 1024 * 1024;

    private final ServiceEndpoint endpoint;
    private final HttpClient http;
    private final ExchangeObserver observer;

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
        this.endpoint = endpoint;
        this.observer = observer;
        DefaultHttpClientConfiguration config = new DefaultHttpClientConfiguration();
        // Connecting gets nine tenths of the deadline, so that a connection still not made ends as a connect
        // timeout (nothing sent: Refused) and not as the request timeout firing at the same instant (TimedOut, which
        // a mutation must report as uncertain).
        config.setConnectTimeout(endpoint.getDeadline().multipliedBy(9).dividedBy(10));
        config.setReadTimeout(endpoint.getDeadline());
        config.setRequestTimeout(endpoint.getDeadline());
        // A status is an answer to interpret, not an exception; redirects are not part of any contract.
        config.setExceptionOnErrorStatus(false);
        config.setFollowRedirects(false);
        config.setMaxContentLength(MAX_BODY_BYTES);
        try {
            this.http = HttpClient.create(endpoint.getUrl()
                    .orElseThrow(() -> new IllegalArgumentException(endpoint.getName() + " has no url"))
                    .toURL(), config);
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(endpoint.getName() + " has an unusable url", e);
        }
    }

    /** The service name, e.g. {@code wiki}, for messages. */
    public String service() {
        return endpoint.getName();
    }

    /** The whole-call deadline. */
    public Duration deadline() {
        return endpoint.getDeadline();
    }

    /** Sends a read; once more if the first connection was refused at once (a connect timeout is not retried). */
    public Reply read(Supplier<MutableHttpRequest<?>> request) {
        Reply first = send(request.get());
        return first instanceof Reply.Refused refused && refused.retryable() ? send(request.get()) : first;
    }

    /** Sends a mutation exactly once. */
    public Reply mutate(MutableHttpRequest<?> request) {
        return send(request);
    }

    private Reply send(MutableHttpRequest<?> request) {
        endpoint.currentCredential().ifPresent(request::bearerAuth);
        ExchangeObserver.Exchange exchange = observer.start(endpoint.getName(), request);
        Reply reply = exchange(request);
        exchange.end(reply);
        return reply;
    }

    private Reply exchange(MutableHttpRequest<?> request) {
        try {
            HttpResponse<byte[]> response = http.toBlocking()
                    .exchange(request, Argument.of(byte[].class), Argument.of(byte[].class));
            return new Reply.Answered(response.code(),
                    response.getContentType().map(Object::toString),
                    // Several version headers are as unknown a generation as a wrong one.
                    Optional.of(String.join(",", response.getHeaders().getAll(API_VERSION_HEADER)))
                            .filter(v -> !v.isEmpty()),
                    Optional.ofNullable(response.getHeaders().get(OPERATION_ID_HEADER)),
                    response.getBody().orElse(new byte[0]));
        } catch (ReadTimeoutException e) {
            return new Reply.TimedOut();
        } catch (RuntimeException e) {
            return classify(e);
        }
    }

    private static Reply classify(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectTimeoutException) {
                return new Reply.Refused(false);
            }
            if (t instanceof ConnectException) {
                return new Reply.Refused(true);
            }
        }
        return new Reply.Broken();
    }

    @Override
    public void close() {
        http.close();
    }
}
