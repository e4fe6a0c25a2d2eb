package dev.gatehouse.gateway;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A request whose body was already read into memory (by the {@code /mcp} guard or the admin API's body limit), handed
 * on with that body: its length is the bytes read, its stream replays them ({@link BufferedBody}), and read as text
 * they are UTF-8, the only encoding either path accepts.
 */
public class BufferedBodyRequest extends HttpServletRequestWrapper {

    private final byte[] body;

    public BufferedBodyRequest(HttpServletRequest request, byte[] body) {
        super(request);
        this.body = body;
    }

    @Override
    public int getContentLength() {
        return body.length;
    }

    @Override
    public long getContentLengthLong() {
        return body.length;
    }

    @Override
    public ServletInputStream getInputStream() {
        return new BufferedBody(body);
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
    }
}
