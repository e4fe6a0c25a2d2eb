package dev.gatehouse.gateway;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * A request body already read into memory (by the {@code /mcp} guard or the admin API's body limit), replayed to
 * whoever reads the request next: always ready, so a read listener is told at once that all of it is there.
 */
public final class BufferedBody extends ServletInputStream {

    private final ByteArrayInputStream in;

    public BufferedBody(byte[] body) {
        this.in = new ByteArrayInputStream(body);
    }

    @Override
    public int read() {
        return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
        return in.read(buffer, offset, length);
    }

    @Override
    public boolean isFinished() {
        return in.available() == 0;
    }

    @Override
    public boolean isReady() {
        return true;
    }

    @Override
    public void setReadListener(ReadListener listener) {
        try {
            if (!isFinished()) {
                listener.onDataAvailable();
            }
            listener.onAllDataRead();
        } catch (IOException e) {
            listener.onError(e);
        }
    }
}
