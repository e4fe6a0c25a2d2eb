package dev.gatehouse.gateway.policy.confinement;

import dev.gatehouse.gateway.policy.TestBundle;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The real local-services {@code WikiStore}, loaded from that module's compiled classes. local-services is kept off
 * the gateway's test classpath (its beans would join the gateway's test contexts), so it is loaded here by a class
 * loader of its own, without starting any context, and driven by reflection: write a page at a full wiki path.
 */
final class LocalWikiStore {

    private final Object store;
    private final Method parse;
    private final Method write;
    private final Class<?> apiException;
    private final Method code;

    LocalWikiStore(Path root) {
        try {
            Path classes = TestBundle.repo().resolve("local-services/target/classes");
            if (!Files.isDirectory(classes)) {
                throw new IllegalStateException(classes + " is missing: build with -pl gateway -am");
            }
            ClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                    LocalWikiStore.class.getClassLoader());
            Class<?> storeClass = loader.loadClass("dev.gatehouse.local.wiki.WikiStore");
            Class<?> pathClass = loader.loadClass("dev.gatehouse.local.wiki.WikiPath");
            Class<?> files = loader.loadClass("dev.gatehouse.local.storage.AtomicFiles");
            Class<?> writer = loader.loadClass("dev.gatehouse.local.storage.AtomicFiles$ContentWriter");
            Object plain = files.getField("PLAIN").get(null);
            this.store = storeClass.getConstructor(Path.class, writer).newInstance(root, plain);
            this.parse = pathClass.getMethod("parse", String.class);
            this.write = storeClass.getMethod("write", pathClass, String.class, Optional.class);
            this.apiException = loader.loadClass("dev.gatehouse.local.http.ApiException");
            this.code = apiException.getMethod("code");
        } catch (ReflectiveOperationException | MalformedURLException e) {
            throw new IllegalStateException("cannot load the local wiki store", e);
        }
    }

    /**
     * Writes a page at {@code fullPath}.
     *
     * @return empty when written, or the store's refusal code
     */
    Optional<String> write(String fullPath, String content) {
        try {
            write.invoke(store, parse.invoke(null, fullPath), content, Optional.empty());
            return Optional.empty();
        } catch (InvocationTargetException e) {
            if (apiException.isInstance(e.getCause())) {
                try {
                    return Optional.of((String) code.invoke(e.getCause()));
                } catch (ReflectiveOperationException inner) {
                    throw new IllegalStateException(inner);
                }
            }
            throw new IllegalStateException("the store failed on " + fullPath, e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
