package dev.gatehouse.gateway;

import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The one {@link Clock} beans read the time from (UTC), so tests can give them another one instead of sleeping.
 */
@Factory
class ClockFactory {

    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
