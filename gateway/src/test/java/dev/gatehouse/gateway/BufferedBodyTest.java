package dev.gatehouse.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ReadListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A buffered body replays its bytes to a blocking reader and to a read listener alike. */
class BufferedBodyTest {

    @Test
    void aBlockingReaderGetsEveryByteAndThenTheEnd() throws IOException {
        byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        BufferedBody in = new BufferedBody(body);
        assertTrue(in.isReady());
        assertArrayEquals(body, in.readAllBytes());
        assertTrue(in.isFinished());
        assertEquals(-1, in.read());
    }

    @Test
    void aReadListenerIsToldAtOnceThatItIsAllThere() {
        for (byte[] body : List.of("{}".getBytes(StandardCharsets.UTF_8), new byte[0])) {
            BufferedBody in = new BufferedBody(body);
            List<String> told = new ArrayList<>();
            List<byte[]> read = new ArrayList<>();
            in.setReadListener(new ReadListener() {
                @Override
                public void onDataAvailable() throws IOException {
                    told.add("data");
                    read.add(in.readAllBytes());
                }

                @Override
                public void onAllDataRead() {
                    told.add("all");
                }

                @Override
                public void onError(Throwable t) {
                    told.add("error");
                }
            });
            assertEquals(body.length == 0 ? List.of("all") : List.of("data", "all"), told);
            if (body.length > 0) {
                assertArrayEquals(body, read.get(0));
            }
        }
    }
}
