package dev.gatehouse.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests java.net.http will not send: a forged {@code Host}, a chunked body of
 * any size, a lying {@code Content-Length}. Always {@code Connection: close}.
 */
public final class RawHttp {

    private RawHttp() {
    }

    /** A parsed response. Header names are lower-case. */
    public record Response(int status, Map<String, String> headers, String body) {
    }

    /** Sends {@code head} (request line and headers, CRLF-separated, without the blank line) and {@code body}. */
    public static Response send(int port, String head, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            try {
                out.write(body);
                out.flush();
            } catch (IOException refusedMidBody) {
                // The server may answer and close before it has read everything (413): read what it sent.
            }
            return read(socket.getInputStream());
        }
    }

    /**
     * As {@link #send}, then the client's side of the connection is closed (a half-close), so the server reads the
     * end of the stream where {@code body} ends: a body cut short is seen at once, not at the idle timeout.
     */
    public static Response sendAndEnd(int port, String head, byte[] body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            socket.shutdownOutput();
            return read(socket.getInputStream());
        }
    }

    /** A POST /mcp with a JSON body and the given extra header lines. */
    public static Response post(int port, String json, String... headers) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: "
                + body.length);
        for (String header : headers) {
            head.append("\r\n").append(header);
        }
        return send(port, head.toString(), body);
    }

    private static Response read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try {
            in.transferTo(all);
        } catch (IOException reset) {
            // A server that closes after answering may reset the connection; keep what arrived.
        }
        String text = all.toString(StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        String[] lines = text.substring(0, Math.max(end, 0)).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        String body = end < 0 ? "" : text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(Integer.parseInt(lines[0].split(" ")[1]), headers, body);
    }

    private static String dechunk(String chunked) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.append(chunked, lineEnd + 2, Math.min(chunked.length(), lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
        }
        return out.toString();
    }
}
