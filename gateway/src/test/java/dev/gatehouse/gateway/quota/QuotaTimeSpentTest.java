package dev.gatehouse.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.zaxxer.hikari.HikariDataSource;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.store.Database;
import dev.gatehouse.gateway.store.EmbeddedStores;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A request whose store time was spent before the quota step reached its bucket (the field fault: calls that waited
 * for the PDP under load switched every bucket of the replica to its local share for {@code retry-store-after}, so
 * the others' calls were admitted uncounted by the other replicas). On a real PostgreSQL, with the request deadlines
 * on a clock the test moves: each such call is {@link Admission.TimeSpent} and takes no token, whatever the overrun
 * (none left at all, less than a connection's validation time left, long past); the budgets stay shared; the calls
 * that follow with time left are charged on the shared bucket, which the refused ones did not touch.
 */
class QuotaTimeSpentTest {

    private static final Duration DEADLINE = Duration.ofSeconds(2);

    private static PolicyOutcome<Decision> allow(Quota quota) {
        return new PolicyOutcome.Decided<>(new Decision(true, List.of(),
                new Obligations(Map.of(), Map.of(), Optional.empty(), Optional.of(quota)), "rev", 1));
    }

    @Test
    void aCallWithNoStoreTimeLeftTakesNoTokenAndLeavesTheBudgetsShared() {
        try (ApplicationContext context = ApplicationContext.run(Map.of(
                "gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                        + "/bundle.tar.gz",
                "gatehouse.audit.path", "target/test-decisions/quota-time-spent.jsonl"), "test")) {
            HikariDataSource pool = (HikariDataSource) DelegatingDataSource.unwrapDataSource(
                    context.getBean(DataSource.class));
            AtomicLong now = new AtomicLong(); // the clock the request deadlines are measured on
            Database database = EmbeddedStores.database(pool, DEADLINE, now::get);
            QuotaProperties properties = context.getBean(QuotaProperties.class);
            AtomicLong ticks = new AtomicLong(); // the buckets' time: never moves, so no token is refilled
            QuotaTime time = new QuotaTime(Clock.systemUTC(), ticks::get);
            QuotaLimiter limiter = new QuotaLimiter(
                    new SharedBudgets(new QuotaFactory().buckets(database, time), properties),
                    new LocalBudgets(time, properties.getDegradedShare()), properties, ticks::get, Clock.systemUTC());
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            QuotaStep step = new QuotaStep(limiter, new QuotaMetrics(meters), properties, ticks::addAndGet);
            Quota quota = new Quota("outside_agent/wiki_write/slow", "wiki_write", 60, 3);

            List<Duration> spent = List.of(DEADLINE, DEADLINE.minusMillis(1), DEADLINE.plusMillis(1),
                    DEADLINE.minusMillis(100), Duration.ofMinutes(5));
            for (Duration used : spent) {
                try (Database.Budget request = database.requestBudget()) {
                    now.addAndGet(used.toNanos());
                    assertInstanceOf(Admission.TimeSpent.class, step.admit(allow(quota)), "used " + used);
                }
                assertEquals(Admission.Budget.SHARED, limiter.status().budgets(), "used " + used);
            }

            for (int i = 0; i < quota.burst(); i++) {
                try (Database.Budget request = database.requestBudget()) {
                    Admission.Admitted admitted = assertInstanceOf(Admission.Admitted.class, step.admit(allow(quota)),
                            "token " + i + " of the burst, none taken by the calls out of time");
                    assertEquals(Admission.Budget.SHARED, admitted.budget());
                }
            }
            try (Database.Budget request = database.requestBudget()) {
                Admission.OverBudget over = assertInstanceOf(Admission.OverBudget.class, step.admit(allow(quota)));
                assertEquals(Admission.Budget.SHARED, over.budget());
            }
            assertEquals(spent.size(), meters.get(QuotaMetrics.TIME_SPENT).tag("class", "wiki_write").counter()
                    .count());
        }
    }
}
