package dev.gatehouse.gateway.gate;

/**
 * The gate's named steps, in the order every entry point runs them (docs/design.md, "The gate's steps"): tools/call,
 * tools/list and a Project Work notice each enter through their own {@link DecisionRequest} and go through the same
 * {@link GatePipeline}. Each step is timed in {@code gatehouse.gate.step} tagged with its {@link #wire()} name and
 * traced as the span {@code gate.<name>} ({@code telemetry.GateSteps}).
 *
 * <p>A further step (an admission step for quotas, say) is one more constant here and one call at the place marked
 * in {@link GatePipeline#decide}, between {@link #DECISION} and {@link #DECISION_LOG}: it acts on a decided answer,
 * and the record the log step writes then says what it did; it serves all three entry points at once.
 */
public enum GateStep {

    /** The PIP, entered once: the caller's facts and the shells of the threads the call names. */
    FACTS("facts"),
    /** The facts derived from the request (a call's arguments, a notice's routing fields): the decision input. */
    ARGUMENTS("arguments"),
    /** The served revision's entry point evaluated on the decision input. */
    DECISION("decision"),
    /** The decision record written before anything is done with the decision. */
    DECISION_LOG("decision-log"),
    /** What the logged decision lets the gate do: a literal allow carrying every obligation its row implies. */
    ENFORCE("enforce"),
    /**
     * The action of an allowed request: a tools/call's tool handler, a notice's aggregate send. A listing has none
     * here (the SDK writes the decided list).
     */
    HANDLER("handler");

    private final String wire;

    GateStep(String wire) {
        this.wire = wire;
    }

    /** The step's name in metrics, traces and {@code GET /admin/pipeline-timings}. */
    public String wire() {
        return wire;
    }
}
