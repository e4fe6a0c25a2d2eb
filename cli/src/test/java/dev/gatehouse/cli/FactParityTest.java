package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.AccessTable;
import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.Modes;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.ToolSchema;
import dev.gatehouse.review.Calls;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The review CLI decides every input as the gateway does (issue "The policy is the whole truth"): each call is turned
 * into its decision input once the way the gate does it ({@link ArgumentFacts#of} and the typed
 * {@link DecisionInput}, written by {@link DecisionInputMapper#forCall}) and once the way {@code explain},
 * {@code matrix} and {@code diff} do it ({@link Calls#input} on a call written as JSON), for the golden matrix's calls
 * and for generated ones with non-ASCII keys, paths and ids, look-alike identity keys, long values and wide arguments.
 * Both inputs must be equal, and the pinned {@code opa} must decide both lists alike.
 */
class FactParityTest {

    private static final ObjectMapper EXACT = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final int COUNT = Integer.getInteger("gatehouse.parity.count", 10_000);
    private static final List<String> KEYS = List.of("title", "summary", "agentName", "agentId", "aɡentId",
            "AgentI\u0307d", "agent\u2800Id", "\u0430gentId", "ＡｇｅｎｔＩｄ", "clientId", "c1ientId", "nöte", "заметка",
            "メモ", "session id", "wiki.root", "threadId", "projectId", "x\u200by");
    private static final List<String> SEGMENTS = List.of("notes", "page.md", "über", "заметки", "ノート.md", "..",
            ".", "", "a b", "a\u200bb", "emoji\uD83D\uDE00.md", "ا\u064e", "CON");
    private static final List<String> IDS = List.of("a1", "a2", "агент", "ノート", "a b", "o1");

    @Test
    void theGatewaysFactsAndTheClisAreOneForEveryCall() throws Exception {
        try (PolicySource source = PolicySource.directory(Repo.POLICIES)) {
            Calls calls = Calls.of(source);
            Gateway gateway = new Gateway(source);
            List<ObjectNode> asGateway = new ArrayList<>();
            List<ObjectNode> asCli = new ArrayList<>();
            for (Call call : calls()) {
                ObjectNode theGateways = gateway.input(call);
                ObjectNode callJson = Opa.JSON.createObjectNode();
                callJson.set("caller", theGateways.get("caller"));
                callJson.set("targets", theGateways.get("targets"));
                callJson.put("tool", call.tool());
                callJson.set("arguments", EXACT.valueToTree(call.arguments()));
                ObjectNode theClis = calls.input(callJson);
                assertEquals(theGateways, theClis, call.toString());
                asGateway.add(theGateways);
                asCli.add(theClis);
            }
            assertTrue(asGateway.size() >= COUNT, "calls: " + asGateway.size());
            JsonNode a = decide(source, asGateway);
            JsonNode b = decide(source, asCli);
            assertEquals(asGateway.size(), a.size(), "every input decided");
            assertEquals(a, b);
        }
    }

    /** One opa eval over all inputs: index → decision. */
    private static JsonNode decide(PolicySource source, List<ObjectNode> inputs) {
        ObjectNode input = Opa.JSON.createObjectNode();
        ArrayNode list = input.putArray("inputs");
        inputs.forEach(list::add);
        return Repo.opa().eval(source, "package gatehouse_parity\n\nresult[i] := d if {\n\tsome i, x in input.inputs\n"
                + "\td := data.gatehouse.authz.decision with input as x\n}\n", "data.gatehouse_parity.result", input);
    }

    /** A call as the gate receives it. */
    private record Call(String tool, Object arguments, CallerFacts caller) {
    }

    /** The gate's derivation of a call's input, with the revision's rows and schemas. */
    private static final class Gateway {
        private final Map<String, AccessRow> rows;
        private final Map<String, ToolSchema> schemas = new LinkedHashMap<>();
        private final ArgumentLimits limits = new ArgumentLimits();

        Gateway(PolicySource source) {
            List<String> problems = new ArrayList<>();
            rows = AccessTable.rows(source.accessTable(), problems);
            assertEquals(List.of(), problems);
            ClosedSchemaArgumentCheck check = new ClosedSchemaArgumentCheck();
            source.toolSchemas().fields().forEachRemaining(e -> schemas.put(e.getKey(), ToolSchema.compile(
                    e.getKey(), EXACT.convertValue(e.getValue(), new TypeReference<LinkedHashMap<String, Object>>() {
                    }), check)));
        }

        ObjectNode input(Call call) {
            ArgumentFacts facts = ArgumentFacts.of(Optional.ofNullable(schemas.get(call.tool())),
                    Optional.ofNullable(rows.get(call.tool())), call.arguments(), limits, call.caller().subtreeIds());
            return DecisionInputMapper.forCall(new DecisionInput(call.tool(), facts, call.caller(), Map.of()));
        }
    }

    /** The golden matrix's tools/call cases, then generated calls up to {@link #COUNT}. */
    private static List<Call> calls() throws Exception {
        List<Call> calls = new ArrayList<>();
        JsonNode rows = Opa.JSON.readTree(Repo.POLICIES.resolve("gatehouse/access_table/data.json").toFile());
        List<String> tools = new ArrayList<>();
        rows.fieldNames().forEachRemaining(tools::add);
        tools.add("no_such_tool");
        try (Stream<Path> files = Files.walk(Repo.ROOT.resolve("policy-tests/golden"))) {
            for (Path file : files.filter(f -> f.getFileName().toString().equals("cases.json")).toList()) {
                JsonNode suite = Opa.JSON.readTree(file.toFile());
                if (suite.has("entrypoint")) {
                    continue; // the notice entry point has no call
                }
                SplittableRandom random = new SplittableRandom(file.toString().hashCode());
                for (JsonNode c : suite.path("cases")) {
                    if (c.path("input").path("tool").isTextual() && c.path("input").path("arguments").isObject()) {
                        calls.add(new Call(c.path("input").path("tool").asText(), EXACT.convertValue(
                                c.path("input").path("arguments"), Object.class), caller(random)));
                    }
                }
            }
        }
        SplittableRandom random = new SplittableRandom(22);
        while (calls.size() < COUNT) {
            String tool = tools.get(random.nextInt(tools.size()));
            // As the transport hands them to the gate: read from JSON, fractions exact.
            Object arguments = EXACT.convertValue(EXACT.valueToTree(arguments(random, tool, rows.path(tool))),
                    Object.class);
            calls.add(new Call(tool, arguments, caller(random)));
        }
        return calls;
    }

    @SuppressWarnings("unchecked")
    private static Object arguments(SplittableRandom random, String tool, JsonNode row) throws Exception {
        Map<String, Object> arguments = new LinkedHashMap<>();
        Path schema = Repo.ROOT.resolve("schemas/tools/" + tool + ".input.json");
        if (Files.exists(schema)) {
            arguments.putAll((Map<String, Object>) EXACT.convertValue(Opa.JSON.readTree(schema.toFile())
                    .path("examples").path(0), Map.class));
        }
        row.path("paths").fieldNames().forEachRemaining(field -> arguments.put(field, path(random)));
        int extra = random.nextInt(random.nextInt(8) == 0 ? 12 : 3);
        for (int i = 0; i < extra; i++) {
            String key = KEYS.get(random.nextInt(KEYS.size()));
            Object value = switch (random.nextInt(5)) {
                case 0 -> Map.of(KEYS.get(random.nextInt(KEYS.size())), "v");
                case 1 -> "long".repeat(100);
                case 2 -> List.of(1, 2.50, "x");
                default -> "v" + i;
            };
            arguments.put(key + (random.nextInt(4) == 0 ? String.valueOf(i) : ""), value);
        }
        return arguments;
    }

    private static String path(SplittableRandom random) {
        int segments = 1 + random.nextInt(4);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < segments; i++) {
            parts.add(SEGMENTS.get(random.nextInt(SEGMENTS.size())));
        }
        return String.join("/", parts);
    }

    private static CallerFacts caller(SplittableRandom random) {
        String id = IDS.get(random.nextInt(IDS.size()));
        CallerFacts.Settings settings = new CallerFacts.Settings(random.nextBoolean(), true, true, true,
                random.nextBoolean());
        if (random.nextBoolean()) {
            return new CallerFacts("thread", id, Optional.of("t1"), Optional.of("pi-1"), Optional.of(
                    ThreadShell.found(false, true, Optional.of("pi-1"), "full-access", "default")), Optional.empty(),
                    settings, Optional.empty());
        }
        return new CallerFacts("outside_agent", "oa-" + id, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(random.nextBoolean() ? "full-access" : "read-only"), settings,
                random.nextInt(4) == 0 ? Optional.of(new Modes("auto", "plan")) : Optional.empty(),
                random.nextInt(3) == 0 ? Optional.of(IDS.get(random.nextInt(IDS.size()))) : Optional.empty());
    }
}
