package dev.gatehouse.facade.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback peer that answers every request with the same raw bytes and then closes the connection, for answers
 * no HTTP server would send (a body shorter than its {@code Content-Length}, a garbled status line). Counts the
 * connections it accepted.
 */
final class ScriptedPeer implements AutoCloseable {

    private final ServerSocket socket;
    private final AtomicInteger connections = new AtomicInteger();

    ScriptedPeer(String rawAnswer) {
        try {
            socket = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread thread = new Thread(() -> serve(rawAnswer.getBytes(StandardCharsets.ISO_8859_1)), "scripted-peer");
        thread.setDaemon(true);
        thread.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    int connections() {
        return connections.get();
    }

    private void serve(byte[] answer) {
        while (!socket.isClosed()) {
            try (Socket peer = socket.accept()) {
                connections.incrementAndGet();
                readHead(peer.getInputStream());
                peer.getOutputStream().write(answer);
                peer.getOutputStream().flush();
            } catch (IOException closedOrReset) {
                // the test is over, or the client gave up: either way the next accept decides
            }
        }
    }

    /** Reads up to the blank line that ends the request head (the tests send no bodies here). */
    private static void readHead(InputStream in) throws IOException {
        int last4 = 0;
        int b;
        while ((b = in.read()) != -1) {
            last4 = (last4 << 8) | b;
            if (last4 == 0x0D0A0D0A) {
                return;
            }
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
