package dev.gatehouse.gateway.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * The slow tier: a unit test class that takes more than about 30 s on a busy 2-core machine (generated variants
 * by the thousand, thousands of calls through the real engine). {@code make test} and a plain {@code mvn test} run
 * it; {@code make check}, the inner loop before each commit, leaves it out ({@code -DexcludedGroups=slow}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(Slow.TAG)
public @interface Slow {

    /** The JUnit tag, as {@code make check} names it. */
    String TAG = "slow";
}
