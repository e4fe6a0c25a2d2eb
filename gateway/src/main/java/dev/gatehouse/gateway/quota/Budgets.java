package dev.gatehouse.gateway.quota;

import dev.gatehouse.gateway.policy.api.Quota;
import io.github.bucket4j.ConsumptionProbe;

/** Where a quota's tokens are taken from: the buckets every replica shares, or this replica's own. */
interface Budgets {

    /**
     * Takes one token of {@code quota}'s bucket if it has one.
     *
     * @throws RuntimeException when the store behind the buckets failed
     */
    ConsumptionProbe take(Quota quota);
}
