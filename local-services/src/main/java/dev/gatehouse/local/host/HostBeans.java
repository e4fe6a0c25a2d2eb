package dev.gatehouse.local.host;

import dev.gatehouse.local.config.LocalServicesConfig;
import dev.gatehouse.local.storage.DataDirectory;
import dev.gatehouse.local.storage.JsonState;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The host store on {@code <data-dir>/host/state.json}. */
@Factory
public class HostBeans {

    @Singleton
    HostStore hostStore(DataDirectory data, LocalServicesConfig config) {
        return new HostStore(new JsonState<>(data.child("host").resolve("state.json"), HostState.class),
                Clock.systemUTC(), config.getHostEventsKept());
    }
}
