package dev.gatehouse.gateway.policy.embedded;

import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PreDestroy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings new bundle revisions to the {@link EmbeddedPdp}, on one daemon thread:
 * <ul>
 *   <li>with {@code gatehouse.policy.bundle-service.url} set, polls that OPA-compatible bundle service
 *       ({@link BundleServiceClient}): after a poll that brought a bundle or a 304 it waits a random time between
 *       {@code min-delay} and {@code max-delay}; after a failure (5xx, timeout, truncated body) it backs off,
 *       doubling from {@code min-delay} up to {@code max-delay}. The ETag is kept only once its bundle was
 *       activated (or was the serving one), so a refused bundle is fetched again;</li>
 *   <li>otherwise watches the bundle file every {@code bundle-watch-interval}: a change in size or modification
 *       time offers the file once (a half-written file fails as a truncated archive and is offered again when it
 *       changes on).</li>
 * </ul>
 * What each offer did is logged by the PDP; the serving revision keeps serving through any failure here.
 */
@Context
@Requires(property = "gatehouse.policy.engine", value = EmbeddedPdp.ENGINE, defaultValue = EmbeddedPdp.ENGINE)
public final class BundleWatcher {

    private static final Logger LOG = LoggerFactory.getLogger(BundleWatcher.class);

    private final EmbeddedPdp pdp;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread daemon = new Thread(runnable, "gatehouse-bundle-watcher");
        daemon.setDaemon(true);
        return daemon;
    });

    public BundleWatcher(EmbeddedPdp pdp, EmbeddedPdpConfiguration configuration,
            BundleServiceConfiguration service) {
        this.pdp = pdp;
        if (service.getUrl().isPresent()) {
            BundleServiceClient client = new BundleServiceClient(service);
            LOG.info("Polling the bundle service {} every {}–{}", client.uri(), service.getMinDelay(),
                    service.getMaxDelay());
            thread.execute(new ServicePoll(client, service));
        } else {
            Path file = configuration.bundleFile();
            FileWatch watch = new FileWatch(file);
            long interval = configuration.getBundleWatchInterval().toMillis();
            thread.scheduleWithFixedDelay(watch, interval, interval, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops watching; an offer under way finishes first (at most the self-test of one bundle). */
    @PreDestroy
    public void close() {
        thread.shutdownNow();
    }

    private final class FileWatch implements Runnable {
        private final Path file;
        private Optional<String> seen;
        /** The stamp of a file that could not be read once: it may still be being written. */
        private Optional<String> unreadable = Optional.empty();

        FileWatch(Path file) {
            this.file = file;
            this.seen = Optional.empty(); // the first look offers the file: it may have changed since start-up
        }

        @Override
        public void run() {
            Optional<String> now = stamp(file);
            if (now.isEmpty() || now.equals(seen)) {
                return;
            }
            try {
                BundleArchive archive = BundleArchive.read(file);
                // The PDP logs what the offer did; a deferred one is offered again at the next look.
                if (!(pdp.offer(archive, "file " + file) instanceof Activation.Deferred)) {
                    seen = now;
                }
            } catch (BundleException e) {
                if (now.equals(unreadable)) {
                    // Unchanged since the last look and still unreadable: corrupt, not half-written. Reported
                    // like any refused bundle (status, readiness detail, log); the serving revision keeps serving.
                    seen = now;
                    pdp.refuseUnreadable(file + " cannot be read: " + e.getMessage());
                } else {
                    unreadable = now;
                    LOG.warn("bundle file {} changed but cannot be read (yet): {}", file, e.getMessage());
                }
            } catch (RuntimeException e) {
                seen = now;
                LOG.error("bundle file {} could not be offered", file, e);
            }
        }
    }

    private static Optional<String> stamp(Path file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return Optional.of(attributes.size() + "@" + attributes.lastModifiedTime().toMillis()
                    + "/" + attributes.fileKey());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private final class ServicePoll implements Runnable {
        private final BundleServiceClient client;
        private final BundleServiceConfiguration service;
        private Optional<String> etag = Optional.empty();
        private int failures;

        ServicePoll(BundleServiceClient client, BundleServiceConfiguration service) {
            this.client = client;
            this.service = service;
        }

        @Override
        public void run() {
            Duration next;
            try {
                next = pollOnce();
            } catch (RuntimeException e) {
                LOG.error("bundle service poll failed", e);
                next = backOff();
            }
            if (!thread.isShutdown()) {
                thread.schedule(this, next.toMillis(), TimeUnit.MILLISECONDS);
            }
        }

        private Duration pollOnce() {
            BundleServiceClient.Poll poll = client.poll(etag);
            if (poll instanceof BundleServiceClient.Poll.NotModified) {
                failures = 0;
                return jitter();
            }
            if (poll instanceof BundleServiceClient.Poll.Failed failed) {
                LOG.warn("bundle service poll failed; the serving revision keeps serving: {}", failed.reason());
                return backOff();
            }
            BundleServiceClient.Poll.Fetched fetched = (BundleServiceClient.Poll.Fetched) poll;
            failures = 0;
            Activation activation = pdp.offer(fetched.archive(), "bundle service " + client.uri());
            etag = activation instanceof Activation.Refused || activation instanceof Activation.Deferred
                    ? Optional.empty() : fetched.etag();
            return jitter();
        }

        private Duration jitter() {
            long min = service.getMinDelay().toMillis();
            long max = Math.max(min, service.getMaxDelay().toMillis());
            return Duration.ofMillis(min == max ? min : ThreadLocalRandom.current().nextLong(min, max + 1));
        }

        private Duration backOff() {
            failures = Math.min(failures + 1, 30);
            long delay = service.getMinDelay().toMillis() << Math.min(failures - 1, 20);
            return Duration.ofMillis(Math.min(Math.max(delay, 1), service.getMaxDelay().toMillis()));
        }
    }
}
