package dev.gatehouse.gateway.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.gate.UnicodeFacts;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.ThreadStateHost;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/domain.md §1: thread agents and outside agents live in separate namespaces. Every caller kind against every
 * spelling of a thread agent's id (same string, case and width variants, path-like forms) under every spelling of
 * the issuer: an outside agent never gets a thread agent's id, settings, project binding or wiki subtree unless a
 * registration says {@code sharesThreadAgent}, and even then only the subtree, as a fact for the policy. The subtree
 * is the policy's choice (obligation {@code wikiRoot}), so it is read here from the served bundle's decision on the
 * facts the PIP resolved, as the gate would ask for it.
 */
class AgentNamespacesTest {

    private static final List<String> THREAD_AGENTS = List.of("a1", "a2", "agent-7");
    private static final List<String> ISSUERS = List.of("https://issuer.test", "https://issuer.test/",
            "HTTPS://ISSUER.TEST", "https://other.test", "");

    private final ThreadStateHost host = new ThreadStateHost();
    private final dev.gatehouse.gateway.support.InMemoryAgentDirectory store =
            new dev.gatehouse.gateway.support.InMemoryAgentDirectory();
    private final TrustedContextResolver pip = new TrustedContextResolver(host, store, new GatewayProperties());
    private static PolicyDecisionPoint pdp;

    @BeforeAll
    static void loadBundle() {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(TestBundle.freshBundle());
        configuration.setPoolSize(1);
        pdp = new EmbeddedPdp(configuration);
        assertTrue(pdp.status().healthy(), "run `make bundle` first: " + pdp.status());
    }

    /**
     * The subtree the policy gives this caller for a wiki_read of {@code page.md}, from the gate's own facts with wiki
     * reading switched on (the subtree does not depend on the settings; the settings assertions stand apart).
     */
    private static Optional<String> wikiRoot(ResolvedCaller resolved) {
        Map<String, Object> arguments = Map.of("path", "page.md");
        CallerFacts facts = resolved.facts();
        CallerFacts reading = new CallerFacts(facts.kind(), facts.logicalAgentId(), facts.threadId(),
                facts.sessionProviderInstanceId(), facts.thread(), facts.ceiling(),
                new CallerFacts.Settings(false, false, false, true, false), facts.modeLimit(),
                facts.sharesThreadAgent());
        DecisionInput input = new DecisionInput(Optional.of("wiki_read"), Optional.of(arguments), List.of(),
                reading, Map.of(), UnicodeFacts.of(arguments, List.of("path"), reading));
        return pdp.decide(input) instanceof PolicyOutcome.Decided<Decision> decided && decided.value().allow()
                ? decided.value().obligations().wikiRoot() : Optional.empty();
    }

    private static final AgentSettings THREAD_SETTINGS = new AgentSettings(true,
            new AgentSettings.Project(true, Optional.of("pp-thread")), new AgentSettings.Wiki(true, true));

    @BeforeEach
    void threadAgentsHaveEverything() {
        THREAD_AGENTS.forEach(agent -> store.put(agent, THREAD_SETTINGS));
    }

    /** Spellings of {@code id} a token's subject could use to pass for it. */
    static List<String> lookAlikes(String id) {
        List<String> out = new ArrayList<>(List.of(id, id.toUpperCase(), " " + id, id + " ", id + "\u200b",
                "agents/" + id, "../" + id, id + "/", "thread:" + id, OutsideAgentIds.PREFIX + id));
        StringBuilder fullwidth = new StringBuilder();
        id.codePoints().forEach(cp -> fullwidth.appendCodePoint(cp >= '!' && cp <= '~' ? cp + 0xFEE0 : cp));
        out.add(fullwidth.toString());
        out.add(Character.toUpperCase(id.charAt(0)) + id.substring(1));
        return List.copyOf(new java.util.LinkedHashSet<>(out));
    }

    private static AuthenticatedCaller outside(String issuer, String subject) {
        return new AuthenticatedCaller(new Authenticated.OutsideAgent(issuer, subject, "full-access"), Optional.empty());
    }

    @Test
    void anUnregisteredOutsideAgentSpelledLikeAThreadAgentGetsNothingOfIt() {
        Set<String> ids = new HashSet<>();
        int cases = 0;
        int expected = 0;
        for (String agent : THREAD_AGENTS) {
            expected += lookAlikes(agent).size() * ISSUERS.size();
            for (String subject : lookAlikes(agent)) {
                for (String issuer : ISSUERS) {
                    ResolvedCaller resolved = pip.resolve(outside(issuer, subject));
                    TrustedContext context = resolved.context();
                    String where = issuer + " / " + subject;
                    assertEquals(CallerKind.OUTSIDE_AGENT, context.callerKind(), where);
                    assertTrue(OutsideAgentIds.DERIVED.matcher(context.logicalAgentId()).matches(), where);
                    assertFalse(THREAD_AGENTS.contains(context.logicalAgentId()), where);
                    assertEquals(context.logicalAgentId(), resolved.facts().logicalAgentId());
                    assertEquals(Optional.of("outside-agents/" + context.logicalAgentId()), wikiRoot(resolved), where);
                    assertEquals(Optional.empty(), context.projectServiceProjectId(), where);
                    assertEquals(Optional.empty(), resolved.facts().sharesThreadAgent(), where);
                    assertFalse(resolved.facts().settings().wikiRead() || resolved.facts().settings().projectEnabled()
                            || resolved.facts().settings().browserAccess(), where);
                    assertTrue(ids.add(context.logicalAgentId()), "issuer and subject together name one agent: "
                            + where);
                    cases++;
                }
            }
        }
        assertEquals(expected, cases);
    }

    @Test
    void derivedIdsTellIssuerAndSubjectApartAcrossTheSeparator() {
        // Found by this sweep: with issuer + "\n" + subject alone, ("a", "b\nc") and ("a\nb", "c") hashed alike.
        for (String[] pair : new String[][] {{"a", "b\nc", "a\nb", "c"}, {"", "\nx", "\n", "x"},
                {"i:", "s", "i", ":s"}, {"1:a", "b", "1", "a\nb"}}) {
            assertNotEquals(OutsideAgentIds.derive(pair[0], pair[1]), OutsideAgentIds.derive(pair[2], pair[3]),
                    String.join("|", pair));
        }
        assertEquals(OutsideAgentIds.derive("https://issuer.test", "a1"), OutsideAgentIds.derive("https://issuer.test",
                "a1"));
        assertEquals(35, OutsideAgentIds.derive("i", "s").length());
    }

    @Test
    void aRegisteredOutsideAgentActsAsItsRegisteredIdWithItsOwnSettings() {
        AgentSettings own = new AgentSettings(false, new AgentSettings.Project(true, Optional.of("pp-partner")),
                new AgentSettings.Wiki(true, false));
        store.register(new OutsideAgentRegistration("https://issuer.test", "a1", "oa-partner", Optional.empty()), own);
        ResolvedCaller resolved = pip.resolve(outside("https://issuer.test", "a1"));
        assertEquals("oa-partner", resolved.context().logicalAgentId());
        assertEquals(Optional.of("outside-agents/oa-partner"), wikiRoot(resolved));
        assertEquals(Optional.of("pp-partner"), resolved.context().projectServiceProjectId());
        assertTrue(resolved.facts().settings().wikiRead());
        assertFalse(resolved.facts().settings().wikiWrite());

        for (String issuer : ISSUERS.subList(1, ISSUERS.size())) {
            assertTrue(OutsideAgentIds.DERIVED.matcher(pip.resolve(outside(issuer, "a1")).context().logicalAgentId())
                    .matches(), "a registration is for its exact issuer: " + issuer);
        }
        for (String subject : lookAlikes("a1").subList(1, lookAlikes("a1").size())) {
            assertNotEquals("oa-partner", pip.resolve(outside("https://issuer.test", subject)).context()
                    .logicalAgentId(), "and its exact subject: " + subject);
        }
        assertTrue(pip.resolve(Callers.a1()).facts().settings().wikiWrite(), "the thread agent a1 keeps its own");
        assertEquals(Optional.of("pp-thread"), pip.resolve(Callers.a1()).context().projectServiceProjectId());
    }

    @Test
    void sharingIsExplicitAndCoversTheSubtreeOnly() {
        store.register(new OutsideAgentRegistration("https://issuer.test", "partner", "oa-partner",
                Optional.of("a1")), AgentSettings.NONE);
        ResolvedCaller resolved = pip.resolve(outside("https://issuer.test", "partner"));
        assertEquals("oa-partner", resolved.context().logicalAgentId());
        assertEquals(Optional.of("agents/a1"), wikiRoot(resolved));
        assertEquals(Optional.of("a1"), resolved.facts().sharesThreadAgent());
        assertEquals(Optional.empty(), resolved.context().projectServiceProjectId(), "no project binding shared");
        assertFalse(resolved.facts().settings().wikiRead(), "no settings shared");
    }

    @Test
    void aThreadCallerIsNeverResolvedIntoTheOutsideNamespace() {
        for (String agent : THREAD_AGENTS) {
            ResolvedCaller resolved = pip.resolve(new AuthenticatedCaller(new Authenticated.ThreadCaller(
                    Callers.session(agent, "t1", "p-1")), Optional.empty()));
            assertEquals(Optional.of("agents/" + agent), wikiRoot(resolved));
            assertEquals(Optional.empty(), resolved.facts().sharesThreadAgent());
            assertTrue(resolved.facts().settings().wikiWrite());
        }
    }
}
