package dev.gatehouse.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a harness reads its command line. */
class HarnessArgsTest {

    @Test
    void eachArgumentSplitsAtItsFirstEquals() {
        Map<String, String> args = HarnessArgs.parse(new String[] {"work=/tmp/w",
            "gateway-options=-Da=b -Dc=d=e", "empty=", "work=/tmp/x"});
        assertEquals(Map.of("work", "/tmp/x", "gateway-options", "-Da=b -Dc=d=e", "empty", ""), args);
        assertEquals(List.of("-Da=b", "-Dc=d=e"), HarnessArgs.options(args, "gateway-options"));
    }

    @Test
    void absentOrBlankOptionsAreNone() {
        Map<String, String> args = HarnessArgs.parse(new String[] {"gateway-options=  ", "b= -Xmx1g\t-Dq=1 "});
        assertEquals(List.of(), HarnessArgs.options(args, "gateway-options"));
        assertEquals(List.of(), HarnessArgs.options(args, "gateway-b-options"));
        assertEquals(List.of("-Xmx1g", "-Dq=1"), HarnessArgs.options(args, "b"));
    }

    @Test
    void anArgumentWithoutAKeyIsRefusedByName() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> HarnessArgs.parse(new String[] {"requests=10", "rounds"}));
        assertEquals("not key=value: rounds", refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HarnessArgs.parse(new String[] {"=5"}));
    }
}
