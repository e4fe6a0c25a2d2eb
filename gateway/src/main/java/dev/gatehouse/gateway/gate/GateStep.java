package dev.gatehouse.gateway.gate;

/**
 * The gate's named steps, in the order every entry point runs them (docs/design.md, "The gate's steps"): tools/call,
 * tools/list and a Project Work notice each enter through their own {@link DecisionRequest} and go through the same
 * {@link GatePipeline}. Each step is timed in {@code gatehouse.gate.step} tagged with its {@link #wire()} name and
 * traced as the span {@code gate.<name>} ({@code telemetry.GateSteps}).
 *
 * <p>{@link #QUOTA} runs for tools/call only (a listing and a notice are never charged, docs/domain.md §10): it acts
 * on the decided answer before {@link #DECISION_LOG}, so the record the log step writes says what it did. The
 * caller's fair share of the gateway is not a step: it is held around the steps after {@link #FACTS} (it is keyed by
 * the caller's trusted facts), up to the end of {@link #HANDLER} ({@code quota.FairShare}).
 */
public enum GateStep {

    /** The PIP, entered once: the caller's facts and the shells of the threads the call names. */
    FACTS("facts"),
    /** The facts derived from the request (a call's arguments, a notice's routing fields): the decision input. */
    ARGUMENTS("arguments"),
    /** The served revision's entry point evaluated on the decision input. */
    DECISION("decision"),
    /**
     * A tools/call's quota (docs/domain.md §10): an allow carrying a {@code quota} obligation takes one token of its
     * bucket, or is refused {@code rate_limited} ({@code quota.QuotaStep}).
     */
    QUOTA("quota"),
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
