package dev.gatehouse.facade.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One request to a service as a facade builds it (see {@link Requests}): the method, the target (the path and query
 * under the service's base URL, already percent-encoded), headers in the order added, and the body's bytes.
 * {@link ServiceClient} sends it as it is, adding only the framing headers the HTTP client writes itself. A plain
 * value instead of a framework request: a facade call builds one per exchange, and nothing here needs more.
 *
 * <p>Not thread-safe: one request is built and sent by one thread.
 */
public final class ServiceRequest {

    /** One header line: a name and a value. */
    public record Header(String name, String value) {
    }

    private final String method;
    private final String target;
    private final List<Header> headers = new ArrayList<>(6);
    private final byte[] body;

    ServiceRequest(String method, String target, byte[] body) {
        this.method = method;
        this.target = target;
        this.body = body;
    }

    /**
     * Adds a header line; another line with the same name is added beside it, never replaced.
     *
     * @return this request
     * @throws IllegalArgumentException when the value holds a control character other than a tab (CR or LF would
     *                                  start a header line of the caller's choosing); nothing is added then
     */
    public ServiceRequest header(String name, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                throw new IllegalArgumentException("header " + name + " holds a control character");
            }
        }
        headers.add(new Header(name, value));
        return this;
    }

    /** The method, e.g. {@code GET}. */
    public String method() {
        return method;
    }

    /** The path and query, percent-encoded as sent, e.g. {@code /wiki/v1/pages?path=agents%2Fa1%2Fx.md}. */
    public String target() {
        return target;
    }

    /** The path alone: {@link #target()} up to its {@code ?}, still percent-encoded. */
    public String path() {
        int query = target.indexOf('?');
        return query < 0 ? target : target.substring(0, query);
    }

    /** The header lines in the order they were added. */
    public List<Header> headers() {
        return List.copyOf(headers);
    }

    /** The body's bytes, when the request has one. */
    public Optional<byte[]> body() {
        return Optional.ofNullable(body);
    }
}
