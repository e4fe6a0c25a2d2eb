package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.context.ResolvedCaller;
import dev.gatehouse.gateway.context.TrustedContextResolver;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.facts.Modes;
import dev.gatehouse.facts.OmittedArgument;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.ThreadShell.Lookup;
import dev.gatehouse.gateway.support.ThreadStateHost;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision input is built from typed facts only, matches its schema and carries no credentials. */
class DecisionInputMapperTest {

    private static final CallerFacts OUTSIDE = new CallerFacts("outside_agent", "a1", Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.of("auto"), new CallerFacts.Settings(false, true, true, true, false),
            Optional.of(new Modes("auto-accept-edits", "plan")));

    private static final CallerFacts THREAD = new CallerFacts("thread", "a1", Optional.of("t1"), Optional.of("pi"),
            Optional.of(ThreadShell.found(false, true, Optional.of("pi"), "full-access", "default")), Optional.empty(),
            new CallerFacts.Settings(true, false, false, false, true), Optional.empty());

    @Test
    void aCallMapsEveryFactTheSchemaLists() throws Exception {
        DecisionInput input = new DecisionInput(Optional.of("t3_thread_send"),
                Optional.of(new java.util.TreeMap<>(Map.of("threadId", "t9", "message", "héllo wörld ✓",
                        "ｎｅｓｔｅｄ", List.of(Map.of("a/b~", 1))))),
                List.of(new ArgumentError("additionalProperties", "", Optional.of("x"), "unknown property x")),
                THREAD, Map.of("t9", ThreadShell.found(true, false, Optional.empty(), "auto", "plan"),
                        "t8", ThreadShell.of(Lookup.NOT_FOUND), "t7", ThreadShell.of(Lookup.UNAVAILABLE)));
        ObjectNode json = DecisionInputMapper.forCall(input);
        assertEquals(PolicyJson.MAPPER.readTree("""
                {"tool":"t3_thread_send",
                 "arguments":{"threadId":"t9","message":"héllo wörld ✓","ｎｅｓｔｅｄ":[{"a/b~":1}]},
                 "argumentErrors":[{"keyword":"additionalProperties","instanceLocation":"","property":"x",
                                    "message":"unknown property x"}],
                 "argumentKeys":[{"path":"/message","key":"message","folded":"message"},
                                 {"path":"/threadId","key":"threadId","folded":"threadid"},
                                 {"path":"/ｎｅｓｔｅｄ","key":"ｎｅｓｔｅｄ","folded":"nested"},
                                 {"path":"/ｎｅｓｔｅｄ/0/a~1b~0","key":"a/b~","folded":"ab"}],
                 "caller":{"kind":"thread","logicalAgentId":"a1","threadId":"t1",
                           "session":{"providerInstanceId":"pi"},
                           "thread":{"lookup":"found","archived":false,"activeRun":true,"providerInstanceId":"pi",
                                     "runtimeMode":"full-access","interactionMode":"default"},
                           "settings":{"browserAccess":true,"project":{"enabled":false,"bound":false},
                                       "wiki":{"read":false,"write":true}}},
                 "targets":{"threads":{"t7":{"lookup":"unavailable"},"t8":{"lookup":"not_found"},
                                       "t9":{"lookup":"found","archived":true,"activeRun":false,
                                             "runtimeMode":"auto","interactionMode":"plan"}}},
                 "unicode":{}}
                """), json);
        assertEquals(List.of(), Schemas.errors("decision-input.json", json));
        assertTrue(PolicyJson.write(json.get("targets").get("threads")).startsWith("{\"t7\":{\"lookup\":\"unavailable\"},"
                + "\"t8\""), "targets are written in id order");
    }

    /** An omitted string is null where it stood and listed by its escaped pointer, at any depth, or as the root. */
    @Test
    void omittedArgumentsAreNullAndListedByPointer() throws Exception {
        OmittedArgument page = new OmittedArgument(600_000, "a".repeat(64));
        OmittedArgument item = new OmittedArgument(300, "b".repeat(64));
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("path", "notes/p.md");
        arguments.put("content", page);
        arguments.put("a/b~", new LinkedHashMap<>(Map.of("list", List.of("short", item, 3))));
        ObjectNode json = DecisionInputMapper.forCall(new DecisionInput(Optional.of("wiki_write"),
                Optional.of(arguments), List.of(), THREAD, Map.of()));
        assertEquals(PolicyJson.MAPPER.readTree("""
                {"path":"notes/p.md","content":null,"a/b~":{"list":["short",null,3]}}"""), json.get("arguments"));
        List<String> order = new ArrayList<>();
        json.get("arguments").fieldNames().forEachRemaining(order::add);
        assertEquals(List.of("path", "content", "a/b~"), order, "members stay in document order");
        assertEquals("""
                {"/content":{"length":600000,"sha256":"%s"},"/a~1b~0/list/1":{"length":300,"sha256":"%s"}}"""
                .formatted("a".repeat(64), "b".repeat(64)), PolicyJson.write(json.get("omittedArguments")));
        assertEquals(List.of(), Schemas.errors("decision-input.json", json));

        ObjectNode whole = DecisionInputMapper.forCall(new DecisionInput(Optional.of("wiki_write"),
                Optional.of(page), List.of(), THREAD, Map.of()));
        assertTrue(whole.get("arguments").isNull());
        assertEquals(600_000, whole.get("omittedArguments").get("").get("length").intValue(), "pointer \"\"");
        assertEquals(List.of(), Schemas.errors("decision-input.json", whole));
        assertFalse(DecisionInputMapper.forCall(new DecisionInput(Optional.of("wiki_read"),
                Optional.of(Map.of("path", "p.md")), List.of(), THREAD, Map.of()))
                .has("omittedArguments"), "absent when nothing was omitted, so other inputs are unchanged");
    }

    @Test
    void aSharedThreadAgentIsSentAsAFact() throws Exception {
        CallerFacts sharing = new CallerFacts("outside_agent", "oa-partner", Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of("auto"), new CallerFacts.Settings(false, false, false, true, true),
                Optional.empty(), Optional.of("a1"));
        ObjectNode json = DecisionInputMapper.forListing(DecisionInput.forListing(sharing));
        assertEquals("a1", json.at("/caller/sharesThreadAgent").textValue());
        assertEquals(List.of(), Schemas.errors("decision-input.json", json));
        ObjectNode own = DecisionInputMapper.forListing(DecisionInput.forListing(OUTSIDE));
        assertFalse(own.get("caller").has("sharesThreadAgent"), "absent, never null");
    }

    @Test
    void aListingSendsTheCallerOnly() throws Exception {
        ObjectNode json = DecisionInputMapper.forListing(DecisionInput.forListing(OUTSIDE));
        assertEquals(PolicyJson.MAPPER.readTree("""
                {"caller":{"kind":"outside_agent","logicalAgentId":"a1","ceiling":"auto",
                           "settings":{"browserAccess":false,"project":{"enabled":true,"bound":true},
                                       "wiki":{"read":true,"write":false}},
                           "modeLimit":{"runtimeMode":"auto-accept-edits","interactionMode":"plan"}},
                 "targets":{"threads":{}},
                 "unicode":{}}
                """), json);
        assertEquals(List.of(), Schemas.errors("decision-input.json", json));
    }

    /**
     * The ceiling and the T3-Mode-Limit names are sent exactly as received: the schema asks only for their syntax,
     * so a name the policy does not know is a valid input (the policy answers ceiling_unknown or
     * mode_limit_unknown), and a name of the wrong syntax is not.
     */
    @Test
    void ceilingAndModeLimitNamesAreSentAsReceived() throws Exception {
        CallerFacts unknown = new CallerFacts("outside_agent", "oa-1", Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of("Super_User.v2"), new CallerFacts.Settings(false, false, false, false,
                        false), Optional.of(new Modes("turbo", "PLAN")));
        ObjectNode json = DecisionInputMapper.forListing(DecisionInput.forListing(unknown));
        assertEquals("Super_User.v2", json.at("/caller/ceiling").textValue());
        assertEquals("turbo", json.at("/caller/modeLimit/runtimeMode").textValue());
        assertEquals("PLAN", json.at("/caller/modeLimit/interactionMode").textValue());
        assertEquals(List.of(), Schemas.errors("decision-input.json", json));
        for (String malformed : List.of("", "read only", "a/b", "é", "x".repeat(65))) {
            ObjectNode bad = json.deepCopy();
            ((ObjectNode) bad.get("caller")).put("ceiling", malformed);
            assertFalse(Schemas.errors("decision-input.json", bad).isEmpty(), malformed);
        }
    }

    /** What the PIP knows but the PDP must not see: credentials, provider session ids, bound project ids, names. */
    @Test
    void noCredentialOrProviderSessionLeavesThePip() {
        AgentSessionFixture fixture = new AgentSessionFixture();
        ResolvedCaller resolved = fixture.pip.resolve(fixture.caller);
        DecisionInput input = new DecisionInput(Optional.of("wiki_read"), Optional.of(Map.of("path", "p.md")),
                List.of(), resolved.facts(), Map.of());
        for (ObjectNode json : List.of(DecisionInputMapper.forCall(input), DecisionInputMapper.forListing(input))) {
            assertFalse(PolicyJson.write(json).contains("SECRET"), PolicyJson.write(json));
        }
    }

    private static final class AgentSessionFixture {
        final ThreadStateHost host = new ThreadStateHost();
        final dev.gatehouse.gateway.support.InMemoryAgentDirectory settings =
                new dev.gatehouse.gateway.support.InMemoryAgentDirectory();
        final TrustedContextResolver pip = new TrustedContextResolver(host, settings, new GatewayProperties());
        final AuthenticatedCaller caller;

        AgentSessionFixture() {
            settings.put("a1", new AgentSettings(true, new AgentSettings.Project(true, Optional.of("ps-SECRET")),
                    new AgentSettings.Wiki(true, true)));
            caller = new AuthenticatedCaller(new Authenticated.ThreadCaller(new AgentSession("sess-SECRET",
                    "env-SECRET", "t1", "provider-session-SECRET", "p-1", "a1", "t3-project-SECRET",
                    Optional.of("display-name-SECRET"), "codex")), Optional.empty());
        }
    }
}
