package dev.gatehouse.facade.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.http.HttpMethod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The transport's retry rule: a read is sent again once only when the connection was refused at once (nothing was
 * sent); a connection not made within the deadline and a mutation never.
 */
class ServiceClientTest {

    @Test
    void aRefusedReadIsTriedExactlyTwiceAndARefusedMutationOnce() {
        AtomicInteger built = new AtomicInteger();
        try (ServiceClient client = new ServiceClient(ServiceEndpoint.of("wiki", URI.create("http://127.0.0.1:"
                + freePort()), "c", StubService.DEADLINE))) {
            Reply read = client.read(() -> {
                built.incrementAndGet();
                return Requests.get("/x");
            });
            Reply mutation = client.mutate(Requests.json(HttpMethod.POST, "/x", Map.of()));

            assertEquals(2, built.get());
            assertEquals(new Reply.Refused(true), read);
            assertEquals(new Reply.Refused(true), mutation);
        }
    }

    @Test
    void aConnectionNotMadeWithinTheDeadlineIsRefusedNotTimedOutAndNotRetried() throws IOException {
        List<Socket> queued = new ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // Nobody accepts: once the accept queue is full the kernel drops further SYNs, so connecting hangs.
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort());
            while (queued.size() < 64) {
                Socket socket = new Socket();
                try {
                    socket.connect(address, 200);
                    queued.add(socket);
                } catch (SocketTimeoutException hangs) {
                    socket.close();
                    break;
                }
            }
            assertTrue(queued.size() < 64, "the accept queue never filled");
            AtomicInteger built = new AtomicInteger();
            try (ServiceClient client = new ServiceClient(ServiceEndpoint.of("wiki", URI.create("http://127.0.0.1:"
                    + full.getLocalPort()), "c", StubService.DEADLINE))) {
                Reply read = client.read(() -> {
                    built.incrementAndGet();
                    return Requests.get("/x");
                });
                Reply mutation = client.mutate(Requests.json(HttpMethod.POST, "/x", Map.of()));

                // Not TimedOut: nothing was sent, so a mutation is unavailable, not uncertain.
                assertEquals(new Reply.Refused(false), read);
                assertEquals(1, built.get());
                assertEquals(new Reply.Refused(false), mutation);
            }
        } finally {
            for (Socket socket : queued) {
                socket.close();
            }
        }
    }

    @Test
    void aReadThatReachedTheServiceIsNotResent() {
        try (StubService stub = new StubService(); ServiceClient client = new ServiceClient(stub.endpoint("wiki"))) {
            stub.server().stubFor(get("/x").willReturn(aResponse().withStatus(503)));

            Reply reply = client.read(() -> Requests.get("/x"));

            assertEquals(503, assertInstanceOf(Reply.Answered.class, reply).status());
            stub.server().verify(1, getRequestedFor(urlEqualTo("/x")));
        }
    }

    /**
     * Every request names the service's own host and port in {@code Host}, whatever a facade put there and whatever
     * path the configured URL holds.
     */
    @Test
    void theHostHeaderIsTheServiceAuthorityOnly() {
        try (StubService stub = new StubService()) {
            stub.server().stubFor(get(urlPathMatching("/.*")).willReturn(aResponse().withStatus(204)));
            int port = stub.server().port();
            for (String base : List.of("http://127.0.0.1:" + port, "http://127.0.0.1:" + port + "/prefix/",
                    "http://localhost:" + port + "/")) {
                ServiceEndpoint endpoint = ServiceEndpoint.of("wiki", URI.create(base), StubService.CREDENTIAL,
                        stub.endpoint("wiki").getDeadline());
                try (ServiceClient client = new ServiceClient(endpoint)) {
                    stub.server().resetRequests();
                    client.read(() -> Requests.get("/x"));
                    client.read(() -> Requests.get("/y").header("Host", "elsewhere.example"));
                    List<String> hosts = stub.server().findAll(getRequestedFor(urlPathMatching("/.*"))).stream()
                            .map(request -> String.join(",", request.getHeaders().getHeader("Host").values()))
                            .toList();
                    String expected = URI.create(base).getHost() + ":" + port;
                    assertEquals(List.of(expected, expected), hosts, base);
                }
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
