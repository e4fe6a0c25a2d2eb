package dev.gatehouse.gateway.admin;

import java.util.List;

/**
 * Every agent id with stored settings, for operators' listings (the PIP never lists agents). Implemented by the
 * settings table's store; may throw {@link dev.gatehouse.gateway.store.StoreUnavailableException}.
 */
public interface AgentListing {

    /** Thread and outside agents' ids alike, sorted. */
    List<String> agentIds();
}
