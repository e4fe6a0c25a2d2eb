package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.ArgumentCheck;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** The closed-schema check the gate compiles each revision's tool schemas with. */
@Factory
class SchemaCheckFactory {

    @Singleton
    ArgumentCheck argumentCheck() {
        return new ClosedSchemaArgumentCheck();
    }
}
