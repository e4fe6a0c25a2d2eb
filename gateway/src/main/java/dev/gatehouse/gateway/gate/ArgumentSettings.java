package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.ArgumentLimits;
import io.micronaut.context.annotation.ConfigurationProperties;

/** The {@link ArgumentLimits} this gateway applies, from {@code gatehouse.arguments} (defaults as documented there). */
@ConfigurationProperties("gatehouse.arguments")
public class ArgumentSettings extends ArgumentLimits {
}
