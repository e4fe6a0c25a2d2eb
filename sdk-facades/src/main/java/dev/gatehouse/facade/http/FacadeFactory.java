package dev.gatehouse.facade.http;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.host.HttpHostFacade;
import dev.gatehouse.facade.host.HttpNoticeThreads;
import dev.gatehouse.facade.host.HttpThreadFeed;
import dev.gatehouse.facade.host.NoticeThreads;
import dev.gatehouse.facade.host.ThreadFeed;
import dev.gatehouse.facade.project.HttpNoticeFeed;
import dev.gatehouse.facade.project.HttpProjectFacade;
import dev.gatehouse.facade.project.NoticeFeed;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.wiki.HttpWikiFacade;
import dev.gatehouse.facade.wiki.WikiFacade;
import io.micronaut.context.BeanLocator;
import io.micronaut.context.annotation.Factory;
import io.micronaut.inject.qualifiers.Qualifiers;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The facade beans (Project, Wiki, host, the notice stream and notice threads of Project and host, and the host's
 * thread events feed), built from {@code gatehouse.services.{project,wiki,host}} ({@link ServiceEndpoint}). An
 * integration without a URL gets a {@link DisabledFacade}. Every client reports its exchanges to every
 * {@link ExchangeObserver} bean, in their order, and takes its credential from the {@link CredentialSource} bean when
 * there is one (else from its endpoint).
 */
@Factory
public class FacadeFactory {

    private final BeanLocator beans;
    private final List<ServiceClient> clients = new CopyOnWriteArrayList<>();

    public FacadeFactory(BeanLocator beans) {
        this.beans = beans;
    }

    @Singleton
    ProjectFacade projectFacade() {
        return build(ProjectFacade.class, "project", c -> new HttpProjectFacade(c, mapper(c)));
    }

    @Singleton
    WikiFacade wikiFacade() {
        return build(WikiFacade.class, "wiki", c -> new HttpWikiFacade(c, mapper(c)));
    }

    @Singleton
    HostFacade hostFacade() {
        return build(HostFacade.class, "host", c -> new HttpHostFacade(c, mapper(c)));
    }

    @Singleton
    NoticeFeed noticeFeed() {
        return build(NoticeFeed.class, "project", c -> new HttpNoticeFeed(c, mapper(c)));
    }

    @Singleton
    NoticeThreads noticeThreads() {
        return build(NoticeThreads.class, "host", c -> new HttpNoticeThreads(c, mapper(c)));
    }

    @Singleton
    ThreadFeed threadFeed() {
        return build(ThreadFeed.class, "host", c -> new HttpThreadFeed(c, mapper(c)));
    }

    private <T> T build(Class<T> type, String name, Function<ServiceClient, T> http) {
        Optional<ServiceEndpoint> endpoint = beans.findBean(ServiceEndpoint.class, Qualifiers.byName(name))
                .filter(e -> e.getUrl().isPresent());
        return endpoint.map(e -> {
            ServiceClient client = new ServiceClient(e, observers(),
                    beans.findBean(CredentialSource.class).orElse(CredentialSource.CONFIGURED));
            clients.add(client);
            return http.apply(client);
        }).orElseGet(() -> DisabledFacade.of(type, name));
    }

    /** All observer beans as one: each sees the start, and then the end, of every exchange. */
    private ExchangeObserver observers() {
        List<ExchangeObserver> all = List.copyOf(beans.getBeansOfType(ExchangeObserver.class));
        if (all.size() == 1) {
            return all.get(0);
        }
        return (service, request) -> {
            List<ExchangeObserver.Exchange> started = all.stream().map(o -> o.start(service, request)).toList();
            return reply -> started.forEach(exchange -> exchange.end(reply));
        };
    }

    /** Releases the HTTP connections when the context stops. */
    @PreDestroy
    void close() {
        clients.forEach(ServiceClient::close);
    }

    private static ReplyMapper mapper(ServiceClient client) {
        return new ReplyMapper(client.service(), client.deadline().toMillis());
    }
}
