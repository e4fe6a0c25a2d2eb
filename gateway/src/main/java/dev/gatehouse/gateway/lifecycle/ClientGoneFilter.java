package dev.gatehouse.gateway.lifecycle;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On the decision exports, which stream for as long as the search has records: once a write fails because the client
 * hung up (Jetty's {@code EofException}, a reset), the rest of the answer is dropped and one DEBUG line says so.
 * Without it every hang-up ({@code curl … | head}) logged two ERRORs with stacks: Micronaut took the failed write of a
 * streamed body for a server error, and then could not write an error body in the export's media type.
 */
public final class ClientGoneFilter implements Filter {

    private static final Logger LOG = LoggerFactory.getLogger(ClientGoneFilter.class);

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(request, new Response((HttpServletResponse) response,
                ((HttpServletRequest) request).getRequestURI()));
    }

    /** The response, whose body stream stops writing once the client is gone. */
    private static final class Response extends HttpServletResponseWrapper {

        private final String path;
        private ServletOutputStream body;

        Response(HttpServletResponse response, String path) {
            super(response);
            this.path = path;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (body == null) {
                body = new Dropping(super.getOutputStream(), path);
            }
            return body;
        }
    }

    /** Writes through until a write fails; then drops everything, as nobody reads it any more. */
    private static final class Dropping extends ServletOutputStream {

        private final ServletOutputStream out;
        private final String path;
        private boolean gone;

        Dropping(ServletOutputStream out, String path) {
            this.out = out;
            this.path = path;
        }

        @Override
        public void write(int b) {
            guarded(() -> out.write(b));
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            guarded(() -> out.write(bytes, offset, length));
        }

        @Override
        public void flush() {
            guarded(out::flush);
        }

        @Override
        public void close() {
            try {
                out.close(); // also once the client is gone: the container's end of the answer
            } catch (IOException e) {
                went(e);
            }
        }

        @Override
        public boolean isReady() {
            return gone || out.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            out.setWriteListener(listener);
        }

        /** Runs one write or flush unless the client is gone; a failure means it just went. */
        private void guarded(Write write) {
            if (gone) {
                return;
            }
            try {
                write.run();
            } catch (IOException e) {
                went(e);
            }
        }

        private void went(IOException e) {
            if (!gone) {
                gone = true;
                LOG.debug("{}: the client hung up before the answer was sent whole ({}); the rest is dropped", path,
                        e.toString());
            }
        }
    }

    /** One operation on the response's stream. */
    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }
}
