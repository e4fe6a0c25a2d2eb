package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import io.micronaut.context.ApplicationContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A load run, not a timed test (it asserts nothing about time): the per-call store cost of one /mcp call by a thread
 * caller, i.e. the session lookup by token hash plus the agent-settings lookup, as the authentication step and the
 * PIP make them, at concurrency 16 on the embedded PostgreSQL of this JVM. Prints p50/p90/p99 per call (both
 * lookups). Run with:
 * {@code mvn -B -ntp -q -pl gateway -am test -Dtest=StoreLookupLoad -Dsurefire.failIfNoSpecifiedTests=false -Dgatehouse.store-load=true}
 */
@EnabledIfSystemProperty(named = "gatehouse.store-load", matches = "true")
class StoreLookupLoad {

    private static final int THREADS = 16;
    private static final int WARMUP_PER_THREAD = 2_000;
    private static final int MEASURED_PER_THREAD = 5_000;

    @Test
    void sessionAndSettingsLookupsPerCall() throws Exception {
        try (ApplicationContext context = ApplicationContext.run(Map.of("micronaut.server.port", "-1"), "test")) {
            SessionStore sessions = context.getBean(SessionStore.class);
            AgentSettingsStore settings = context.getBean(AgentSettingsStore.class);
            List<String> tokens = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                String token = SessionTokens.mint();
                sessions.put(token, new AgentSession(SessionTokens.newId(), "local", "t" + i, "ps", "pi", "a" + i,
                        "demo", Optional.empty(), "codex"));
                settings.put("a" + i, new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                        new AgentSettings.Wiki(true, i % 2 == 0)));
                tokens.add(token);
            }
            run(sessions, settings, tokens, WARMUP_PER_THREAD);
            long[] nanos = run(sessions, settings, tokens, MEASURED_PER_THREAD);
            Arrays.sort(nanos);
            System.out.printf("store lookups per call (session + settings), %d threads, %d calls: p50 %.3f ms,"
                    + " p90 %.3f ms, p99 %.3f ms, cores %d%n", THREADS, nanos.length, nanos[nanos.length / 2] / 1e6,
                    nanos[nanos.length * 9 / 10] / 1e6, nanos[nanos.length * 99 / 100] / 1e6,
                    Runtime.getRuntime().availableProcessors());
        }
    }

    private static long[] run(SessionStore sessions, AgentSettingsStore settings, List<String> tokens, int perThread)
            throws Exception {
        long[] nanos = new long[THREADS * perThread];
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                workers.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        String token = tokens.get((thread * 31 + i) % tokens.size());
                        long start = System.nanoTime();
                        AgentSession session = sessions.findByToken(token).orElseThrow();
                        settings.get(session.logicalAgentId());
                        nanos[thread * perThread + i] = System.nanoTime() - start;
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return nanos;
    }
}
