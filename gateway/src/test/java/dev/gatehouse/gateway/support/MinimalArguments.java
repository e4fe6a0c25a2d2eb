package dev.gatehouse.gateway.support;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;

/** The fixture {@code minimal-arguments.json}: for each tool, arguments that satisfy its closed input schema. */
public final class MinimalArguments {

    private MinimalArguments() {
    }

    public static Map<String, Map<String, Object>> load() throws IOException {
        try (InputStream in = MinimalArguments.class.getClassLoader().getResourceAsStream("minimal-arguments.json")) {
            return new ObjectMapper().readValue(in, new TypeReference<TreeMap<String, Map<String, Object>>>() {
            });
        }
    }
}
