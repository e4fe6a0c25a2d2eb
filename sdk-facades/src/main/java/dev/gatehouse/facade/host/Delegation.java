package dev.gatehouse.facade.host;

/**
 * A task handed to a sub-agent of the calling thread.
 *
 * @param delegationId the host's id for the delegation
 * @param modes        the modes the sub-agent runs at
 * @param status       host-reported status, e.g. {@code started}
 */
public record Delegation(String delegationId, ThreadModes modes, String status) {
}
