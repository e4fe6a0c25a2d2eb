package dev.gatehouse.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every {@code gatehouse.quotas.*} value the limiter cannot work with is refused when it is set (at start-up), never
 * on a call: a zero sync interval was once accepted here and then refused by Bucket4j on the first charged call.
 */
class QuotaPropertiesTest {

    @Test
    void valuesOutOfRangeAreRefused() {
        QuotaProperties properties = new QuotaProperties();
        assertThrows(IllegalArgumentException.class, () -> properties.setSyncInterval(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> properties.setSyncInterval(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> properties.setMaxWait(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> properties.setMaxWait(Duration.ofSeconds(11)));
        assertThrows(IllegalArgumentException.class, () -> properties.setInFlight(0));
        assertThrows(IllegalArgumentException.class, () -> properties.setQueued(-1));
        assertThrows(IllegalArgumentException.class, () -> properties.setSyncTokens(1.5));
        assertThrows(IllegalArgumentException.class, () -> properties.setSyncTokens(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> properties.setDegradedShare(0));
        assertThrows(IllegalArgumentException.class, () -> properties.setDegradedShare(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> properties.setRetryStoreAfter(Duration.ofMillis(-1)));
    }

}
