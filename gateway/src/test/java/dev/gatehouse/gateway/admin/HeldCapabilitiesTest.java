package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.gate.UnicodeFacts;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.support.InMemoryAgentDirectory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The read API's answer ({@code GET /admin/agents/{id}/capabilities}) is the served policy's own: for an outside
 * agent under every ceiling the revision knows and every combination of settings, a scope is listed exactly when a
 * call of a tool needing it is denied neither {@code capability_denied} nor {@code capability_missing}. Found by a
 * new user's trial: an outside agent with {@code browserAccess} on was listed with {@code preview}, which the policy
 * never grants it (docs/domain.md §4), because the entry point listed what the settings grant before the never-held
 * rule applied.
 */
class HeldCapabilitiesTest {

    private static final Set<String> CAPABILITY_CODES = Set.of("capability_denied", "capability_missing");

    private static PolicyDecisionPoint pdp;

    private final InMemoryAgentDirectory directory = new InMemoryAgentDirectory();
    private final HeldCapabilities held = new HeldCapabilities(pdp, directory);

    @BeforeAll
    static void loadBundle() {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(TestBundle.freshBundle());
        configuration.setPoolSize(1);
        pdp = new EmbeddedPdp(configuration);
        assertTrue(pdp.status().healthy(), "run `make bundle` first: " + pdp.status());
    }

    @Test
    void anOutsideAgentHoldsExactlyWhatItsCallsAreDecidedOn() {
        PolicyContents served = pdp.serving().orElseThrow().contents();
        assertFalse(served.ceilings().isEmpty());
        int compared = 0;
        for (String ceiling : served.ceilings()) {
            for (int bits = 0; bits < 32; bits++) {
                AgentSettings settings = settings(bits);
                directory.putSettings(AgentKey.outside("oa-held"), settings);
                List<String> scopes = scopes("oa-held", ceiling);
                CallerFacts caller = new CallerFacts("outside_agent", "oa-held", Optional.empty(), Optional.empty(),
                        Optional.empty(), Optional.of(ceiling), settings.facts(), Optional.empty());
                for (Map.Entry<String, AccessRow> row : served.rows().entrySet()) {
                    if (row.getValue().capability().isEmpty()) {
                        continue;
                    }
                    String scope = row.getValue().capability().get();
                    String where = ceiling + " " + settings + " " + row.getKey();
                    assertEquals(scopes.contains(scope), !deniedFor(row.getKey(), caller), where + ": " + scopes);
                    compared++;
                }
            }
        }
        assertTrue(compared > 0);
    }

    /** The trial's case: browser access on, full access approved; preview is not held, wiki reading is. */
    @Test
    void browserAccessGivesAnOutsideAgentNoPreview() {
        directory.putSettings(AgentKey.outside("oa-browser"), new AgentSettings(true,
                new AgentSettings.Project(false, Optional.empty()), new AgentSettings.Wiki(true, false)));
        for (String ceiling : pdp.serving().orElseThrow().contents().ceilings()) {
            assertFalse(scopes("oa-browser", ceiling).contains("preview"), ceiling);
            assertTrue(scopes("oa-browser", ceiling).contains("wiki.read"), ceiling);
        }
        directory.put("browser", new AgentSettings(true, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(false, false)));
        assertTrue(scopes("browser", "ignored for a thread agent").contains("preview"), "a thread agent holds it");
    }

    private List<String> scopes(String agentId, String ceiling) {
        PolicyOutcome<HeldCapabilities.Held> outcome = held.of(agentId, Optional.of(ceiling));
        return ((PolicyOutcome.Decided<HeldCapabilities.Held>) outcome).value().scopes();
    }

    /** Whether a call of {@code tool} with no arguments is denied for want of the tool's capability. */
    private static boolean deniedFor(String tool, CallerFacts caller) {
        Map<String, Object> arguments = Map.of();
        DecisionInput input = new DecisionInput(Optional.of(tool), Optional.of(arguments), List.of(), caller, Map.of(),
                UnicodeFacts.of(arguments, List.of(), caller));
        Decision decision = ((PolicyOutcome.Decided<Decision>) pdp.decide(input)).value();
        return decision.reasons().stream().anyMatch(reason -> CAPABILITY_CODES.contains(reason.code()));
    }

    /** One of the 32 combinations of the five settings the policy reads. */
    private static AgentSettings settings(int bits) {
        boolean projectEnabled = (bits & 2) != 0;
        return new AgentSettings((bits & 1) != 0, new AgentSettings.Project(projectEnabled,
                (bits & 4) != 0 ? Optional.of("pp-held") : Optional.empty()),
                new AgentSettings.Wiki((bits & 8) != 0, (bits & 16) != 0));
    }
}
