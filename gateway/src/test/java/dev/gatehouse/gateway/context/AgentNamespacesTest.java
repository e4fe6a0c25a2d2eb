package dev.gatehouse.gateway.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.policy.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.ThreadStateHost;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/domain.md §1: thread agents and outside agents live in separate namespaces. Every caller kind against every
 * spelling of a thread agent's id (same string, case and width variants, path-like forms) under every spelling of
 * the issuer: an outside agent never gets a thread agent's id, settings, project binding or wiki subtree unless a
 * registration says {@code sharesThreadAgent}, and even then only the subtree, as a fact for the policy.
 */
class AgentNamespacesTest {

    private static final List<String> THREAD_AGENTS = List.of("a1", "a2", "agent-7");
    private static final List<String> ISSUERS = List.of("https://issuer.test", "https://issuer.test/",
            "HTTPS://ISSUER.TEST", "https://other.test", "");

    private final ThreadStateHost host = new ThreadStateHost();
    private final dev.gatehouse.gateway.support.InMemoryAgentDirectory store =
            new dev.gatehouse.gateway.support.InMemoryAgentDirectory();
    private final TrustedContextResolver pip = new TrustedContextResolver(host, store, new GatewayProperties());

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
                    assertEquals("outside-agents/" + context.logicalAgentId(), context.wikiRoot(), where);
                    assertFalse(context.wikiRoot().startsWith("agents/"), where);
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
        assertEquals("outside-agents/oa-partner", resolved.context().wikiRoot());
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
        assertEquals("agents/a1", resolved.context().wikiRoot());
        assertEquals(Optional.of("a1"), resolved.facts().sharesThreadAgent());
        assertEquals(Optional.empty(), resolved.context().projectServiceProjectId(), "no project binding shared");
        assertFalse(resolved.facts().settings().wikiRead(), "no settings shared");
    }

    @Test
    void aThreadCallerIsNeverResolvedIntoTheOutsideNamespace() {
        for (String agent : THREAD_AGENTS) {
            ResolvedCaller resolved = pip.resolve(new AuthenticatedCaller(new Authenticated.ThreadCaller(
                    Callers.session(agent, "t1", "p-1")), Optional.empty()));
            assertEquals("agents/" + agent, resolved.context().wikiRoot());
            assertEquals(Optional.empty(), resolved.facts().sharesThreadAgent());
            assertTrue(resolved.facts().settings().wikiWrite());
        }
    }

    @Test
    void theFoldersAreThePolicysFolders() throws IOException {
        JsonNode roots = PolicyJson.MAPPER.readTree(TestBundle.policies().resolve("gatehouse/wiki/data.json").toFile())
                .path("roots");
        assertEquals(roots.path("thread").textValue(), TrustedContext.THREAD_AGENTS_FOLDER);
        assertEquals(roots.path("outside_agent").textValue(), TrustedContext.OUTSIDE_AGENTS_FOLDER);
    }
}
