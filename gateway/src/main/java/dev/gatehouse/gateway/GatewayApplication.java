package dev.gatehouse.gateway;

import io.micronaut.runtime.Micronaut;

/** Starts the Gatehouse gateway: the gated MCP endpoint {@code /mcp}, the admin API and {@code /health}. */
public final class GatewayApplication {

    private GatewayApplication() {
    }

    public static void main(String[] args) {
        // No banner: standard output is JSON log lines (logback.xml), one object per line.
        Micronaut.build(args).mainClass(GatewayApplication.class).banner(false).start();
    }
}
