package dev.gatehouse.gateway.policy.embedded;

/**
 * What offering a bundle to the embedded PDP did ({@link EmbeddedPdp#offer}).
 */
public sealed interface Activation {

    /** The bundle was verified, self-tested and now serves every new decision. */
    record Activated(String revision, String previousRevision) implements Activation {
    }

    /** The bundle is the one serving (same archive bytes); nothing changed. */
    record Unchanged(String revision) implements Activation {
    }

    /** The bundle was not activated; the serving revision, if any, keeps serving. */
    record Refused(String reason) implements Activation {
    }

    /**
     * The bundle could not be decided on now (the store of accepted revisions did not answer, so it cannot be shown
     * not to be a rollback); the serving revision keeps serving and the same bundle is offered again later.
     */
    record Deferred(String reason) implements Activation {
    }
}
