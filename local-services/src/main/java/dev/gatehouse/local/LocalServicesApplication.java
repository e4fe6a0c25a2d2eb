package dev.gatehouse.local;

import io.micronaut.runtime.Micronaut;

/**
 * The embedded default backends: the Project, Wiki and host HTTP contracts of schemas/services/ on loopback,
 * persisted under {@code gatehouse.local.data-dir}. Start: {@code java -jar local-services-<version>.jar} with
 * {@code GATEHOUSE_LOCAL_CREDENTIAL} set (optionally {@code GATEHOUSE_LOCAL_PORT}, default 8181, and
 * {@code GATEHOUSE_LOCAL_DATA_DIR}).
 */
public final class LocalServicesApplication {

    /**
     * The Micronaut environment all local-services beans and their configuration
     * ({@code application-local-services.properties}) require. Embedding them in another context means starting
     * it with this environment.
     */
    public static final String ENVIRONMENT = "local-services";

    private LocalServicesApplication() {
    }

    public static void main(String[] args) {
        // A plain logback.xml here would shadow the gateway's when both modules share a classpath.
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "logback-local-services.xml");
        }
        Micronaut.build(args).mainClass(LocalServicesApplication.class).environments(ENVIRONMENT).start();
    }
}
