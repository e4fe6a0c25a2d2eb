package dev.gatehouse.gateway.mcp.guard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Public-failures row 14: the limit holds for declared, chunked and under-declared bodies. */
class BoundedBodyTest {

    /** An endless stream that counts what was read from it. */
    private static final class Endless extends InputStream {
        long read;

        @Override
        public int read() {
            read++;
            return 'x';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            read += len;
            return len;
        }
    }

    @Test
    void aDeclaredLengthOverTheLimitIsRefusedWithoutReading() throws IOException {
        Endless body = new Endless();
        BoundedBody.Result result = BoundedBody.read(body, OptionalLong.of(2048), 1024);
        Rejection rejection = assertInstanceOf(BoundedBody.Result.Refused.class, result).rejection();
        assertEquals(413, rejection.status());
        assertEquals("close", rejection.headers().get("Connection"));
        assertEquals(0, body.read);
    }

    @Test
    void aChunkedOrUnderDeclaredBodyStopsJustPastTheLimit() throws IOException {
        for (OptionalLong declared : new OptionalLong[] {OptionalLong.empty(), OptionalLong.of(100)}) {
            Endless body = new Endless();
            BoundedBody.Result result = BoundedBody.read(body, declared, 1024);
            assertEquals(413, assertInstanceOf(BoundedBody.Result.Refused.class, result).rejection().status());
            assertTrue(body.read <= 1024 + 8192, "read " + body.read);
        }
    }

    @Test
    void aBodyAtTheLimitIsRead() throws IOException {
        byte[] bytes = new byte[1024];
        BoundedBody.Result result = BoundedBody.read(new ByteArrayInputStream(bytes), OptionalLong.empty(), 1024);
        assertArrayEquals(bytes, assertInstanceOf(BoundedBody.Result.Read.class, result).bytes());
    }

    /**
     * Whatever the declared length says of the bytes that come, the body read is the bytes that came (the container
     * ends the stream at its declared length; a stream that does not is read as before, up to the limit), at every
     * size around the first array's (8 KiB) and the limit.
     */
    @Test
    void theBodyReadIsTheBytesThatCameWhateverWasDeclared() throws IOException {
        int limit = 40_000;
        for (int size : new int[] {0, 1, 100, 8191, 8192, 8193, 16_384, 16_385, 39_999, 40_000}) {
            byte[] bytes = new byte[size];
            for (int i = 0; i < size; i++) {
                bytes[i] = (byte) ('a' + i % 26);
            }
            for (long declared : new long[] {-1, size, 0, size / 2, Math.min(size + 1, limit), limit}) {
                OptionalLong length = declared < 0 ? OptionalLong.empty() : OptionalLong.of(declared);
                BoundedBody.Result result = BoundedBody.read(new ByteArrayInputStream(bytes), length, limit);
                assertArrayEquals(bytes, assertInstanceOf(BoundedBody.Result.Read.class, result).bytes(),
                        size + " bytes declared as " + declared);
            }
            BoundedBody.Result over = BoundedBody.read(new ByteArrayInputStream(new byte[limit + 1 + size]),
                    OptionalLong.of(size), limit);
            assertEquals(413, assertInstanceOf(BoundedBody.Result.Refused.class, over).rejection().status());
        }
    }
}
