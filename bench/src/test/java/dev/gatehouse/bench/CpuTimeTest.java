package dev.gatehouse.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The JIT compiler threads' part of a process's CPU time, as the load harness's warm-up reads it. */
class CpuTimeTest {

    @Test
    void thisJvmsCompilerThreadsHaveTakenCpuTimeAndNoMoreThanTheWholeProcess() {
        long jit = CpuTime.jit(ProcessHandle.current().pid());
        long all = ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
        // A JVM that has run a test framework has compiled methods; /proc counts in 10 ms ticks.
        assertTrue(jit >= 10_000_000, "JIT CPU ns " + jit);
        assertTrue(jit <= all + 10_000_000, "JIT " + jit + " ns of " + all);
    }

    @Test
    void aProcessThatIsGoneHasNone() {
        assertEquals(0, CpuTime.jit(Long.MAX_VALUE));
    }

    @Test
    void theJitShareIsOfTheGatewaysOwnTime() {
        CpuTime spent = new CpuTime(1_000, 4_000, 0, 0, 0, 0, 250, 400);
        assertEquals(0.25, spent.jitShare(0), 1e-9);
        assertEquals(0.1, spent.jitShare(1), 1e-9);
        assertEquals(0, CpuTime.NONE.jitShare(0));
        assertEquals(0.25, spent.minus(CpuTime.NONE).plus(CpuTime.NONE).jitShare(0), 1e-9);
    }
}
