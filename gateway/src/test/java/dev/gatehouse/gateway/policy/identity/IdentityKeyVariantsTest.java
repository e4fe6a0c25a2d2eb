package dev.gatehouse.gateway.policy.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.facts.ArgumentKeys;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.support.Slow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * docs/domain.md §6 through the Wasm engine and the real bundle: every identity key of the policy data, spelled
 * every way that means the same (case, each separator at each position, fullwidth, zero-width and format characters
 * at each position, surrounding white space), at the top level and nested, is {@code identity_argument}; keys that
 * only look related stay business data. The keys are folded by {@link dev.gatehouse.facts.ArgumentKeys}
 * exactly as the gate folds them.
 */
@Slow
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdentityKeyVariantsTest {

    /** Spellings per key: one of the case forms; each separator and each invisible at each inner position. */
    private static final List<String> SEPARATORS = List.of("_", "-", ".", " ", "\u3000", "\u00a0", "\uff3f", "\uff0d",
            "\u2010", "\u2013", "\u2014", "\u2212", "\ufe4d", "\u203f");
    private static final List<String> INVISIBLES = List.of("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad",
            "\u180e", "\u034f", "\ufe0f", "\u200e", "\u202e");
    private static final List<String> SURROUNDINGS = List.of(" ", "\t", "\n", "\u3000", "\u2003", "\u00a0", "\u200b");

    private EmbeddedPdp pdp;
    private final List<String> everyTool = new ArrayList<>();
    private final Map<String, List<String>> byToolkit = new LinkedHashMap<>();

    @BeforeAll
    void start() throws IOException {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(TestBundle.freshBundle());
        configuration.setPoolSize(1);
        pdp = new EmbeddedPdp(configuration);
        JsonNode identity = PolicyJson.MAPPER.readTree(TestBundle.policies().resolve("gatehouse/identity/data.json")
                .toFile());
        identity.path("every_tool").fieldNames().forEachRemaining(everyTool::add);
        identity.path("by_toolkit").fields().forEachRemaining(e -> {
            List<String> keys = new ArrayList<>();
            e.getValue().fieldNames().forEachRemaining(keys::add);
            byToolkit.put(e.getKey(), keys);
        });
    }

    /**
     * The camel-case spelling of a listed key (the data lists them folded, {@link ArgumentKeys#fold}):
     * {@code agentid} → {@code agentId}, {@code ciientid} → {@code clientId}.
     */
    static final Map<String, String> CAMEL = Map.ofEntries(Map.entry("agentid", "agentId"),
            Map.entry("ciientid", "clientId"), Map.entry("credentiai", "credential"),
            Map.entry("consumerid", "consumerId"),
            Map.entry("executorref", "executorRef"), Map.entry("wikiroot", "wikiRoot"),
            Map.entry("sessionid", "sessionId"), Map.entry("providersessionid", "providerSessionId"),
            Map.entry("providerinstanceid", "providerInstanceId"), Map.entry("environmentid", "environmentId"),
            Map.entry("projectid", "projectId"), Map.entry("projectserviceprojectid", "projectServiceProjectId"),
            Map.entry("threadid", "threadId"));

    static Set<String> variants(String listed) {
        String camel = CAMEL.getOrDefault(listed, listed);
        Set<String> out = new LinkedHashSet<>(List.of(listed, camel, camel.toUpperCase(), listed.toUpperCase(),
                Character.toUpperCase(camel.charAt(0)) + camel.substring(1), fullwidth(camel), fullwidth(listed)
                        .toUpperCase()));
        for (int i = 1; i < camel.length(); i++) {
            for (String s : SEPARATORS) {
                out.add(camel.substring(0, i) + s + camel.substring(i));
            }
        }
        for (int i = 0; i <= camel.length(); i++) {
            for (String z : INVISIBLES) {
                out.add(camel.substring(0, i) + z + camel.substring(i));
            }
        }
        for (String w : SURROUNDINGS) {
            out.add(w + camel);
            out.add(camel + w);
            out.add(w + fullwidth(camel) + w);
        }
        out.add("_" + camel + "_");
        out.add("-" + camel);
        out.add(camel + ".");
        out.add(String.join("_", camel.split("(?=[A-Z])")).toUpperCase());
        return out;
    }

    private static String fullwidth(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(cp -> b.appendCodePoint(cp >= '!' && cp <= '~' ? cp + 0xFEE0 : cp));
        return b.toString();
    }

    private List<String> codes(String tool, Map<String, Object> arguments) {
        PolicyOutcome<Decision> outcome = pdp.decide(Facts.call(tool, arguments));
        Decision decision = ((PolicyOutcome.Decided<Decision>) outcome).value();
        return decision.reasons().stream().map(Decision.Reason::code).toList();
    }

    @Test
    void everySpellingOfEveryKeyIsAnIdentityArgumentAtTheTopAndNested() {
        int cases = 0;
        List<String> missed = new ArrayList<>();
        Map<String, String> toolOf = Map.of("wiki", "wiki_read", "project", "project_work_get", "thread",
                "t3_thread_read");
        for (Map.Entry<String, String> toolkit : toolOf.entrySet()) {
            List<String> keys = new ArrayList<>(everyTool);
            keys.addAll(byToolkit.getOrDefault(toolkit.getKey(), List.of()));
            for (String key : keys) {
                for (String variant : variants(key)) {
                    Map<String, Object> top = new LinkedHashMap<>(toolkit.getKey().equals("wiki")
                            ? Map.of("path", "page.md") : toolkit.getKey().equals("project")
                                    ? Map.of("runId", "r1") : Map.of("threadId", "t1"));
                    top.put(variant, "a2");
                    if (!codes(toolkit.getValue(), top).contains("identity_argument")) {
                        missed.add(toolkit.getValue() + " " + escape(variant));
                    }
                    cases++;
                }
            }
        }
        assertEquals(List.of(), missed);
        assertTrue(cases > 5_000, "generated " + cases);
    }

    @Test
    void nestedAtAnyDepthForEveryKey() {
        List<String> missed = new ArrayList<>();
        for (String key : everyTool) {
            for (String variant : List.copyOf(variants(key)).subList(0, 40)) {
                Map<String, Object> arguments = Map.of("runId", "r1", "runRevision", "run:1", "assignmentRevision",
                        "position:1", "result", Map.of("files", List.of(Map.of("meta", List.of(Map.of(variant, "x"))))));
                if (!codes("project_work_submit", arguments).contains("identity_argument")) {
                    missed.add(escape(variant));
                }
            }
        }
        assertEquals(List.of(), missed);
    }

    @Test
    void keysThatOnlyLookRelatedStayBusinessData() {
        for (String key : List.of("agentName", "agent", "agentIdentity", "identity", "pathId", "tokenCount",
                "rootFolder", "clientName", "sessionName", "agentd", "agent_i_d_x", "title", "summary")) {
            List<String> codes = codes("wiki_read", Map.of("path", "page.md", key, "x"));
            assertTrue(!codes.contains("identity_argument"), key + " " + codes);
        }
        for (String key : List.of("threadId", "thread_id", "THREAD-ID", "\uff54\uff48\uff52\uff45\uff41\uff44\uff29\uff44")) {
            List<String> codes = codes("t3_thread_send", Map.of("message", "m", key, "t2"));
            assertTrue(!codes.contains("identity_argument"), "thread tools take thread ids as business data: " + key);
        }
        assertEquals(List.of(), codes("wiki_write", Map.of("path", "page.md", "content", "agentId token root")));
        assertEquals(List.of(), codes("t3_thread_launch", Map.of("projectId", "p", "prompt", "x")));
    }

    /**
     * Issue 28: look-alikes of identity keys from the field, each denied. {@code agentI\u0307d} is the canonical
     * equivalent of {@code agentİd}; {@code agent\u0131d} (dotless i), {@code agent1d} and {@code agentlD} read as
     * {@code agentId} by the confusables data (skeleton of {@code I}, {@code 1} and {@code l} alike); before the
     * confusable fold they were business data.
     */
    @Test
    void theFieldLookAlikesAreIdentityArguments() {
        for (String key : List.of("agentI\u0307d", "agent\u0130d", "AgentId\u0301", "agent\u0301Id", "agent\u2800Id",
                "agent\u0131d", "\u0430gentId", "agent1d", "agentlD", "age\u039dtId", "agent\u0399d", "r00t")) {
            Map<String, Object> arguments = Map.of("runId", "r1", "runRevision", "run:1", "assignmentRevision",
                    "position:1", "result", Map.of(key, "a2"));
            assertEquals(List.of("identity_argument"), codes("project_work_submit", arguments), escape(key));
        }
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(cp -> b.append(cp < 0x20 || cp > 0x7e ? String.format("\\u%04x", cp)
                : String.valueOf((char) cp)));
        return b.toString();
    }
}
