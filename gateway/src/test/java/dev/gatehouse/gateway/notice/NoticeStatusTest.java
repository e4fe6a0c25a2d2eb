package dev.gatehouse.gateway.notice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.gatehouse.facade.error.ServiceError;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class NoticeStatusTest {

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(NoticeStatus.class);
    private final NoticeStatus status = new NoticeStatus();

    @BeforeEach
    void capture() {
        logged.start();
        logger.addAppender(logged);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logged);
    }

    @Test
    void theFirstAnswerAfterAFailureIsLoggedOnceAndSteadyAnswersAreNot() {
        status.ok("project");
        status.ok("project");
        assertEquals(List.of(), infos(), "a stream that never failed logs nothing when it answers");

        status.failed("project", new ServiceError.Unavailable("the project service is unreachable"));
        status.failed("project", new ServiceError.Unavailable("the project service is unreachable"));
        status.ok("project");
        status.ok("project");

        List<String> infos = infos();
        assertEquals(1, infos.size(), infos.toString());
        assertTrue(infos.get(0).startsWith("notice stream project answers again; it failed (unavailable) from "),
                infos.get(0));
        assertEquals("ok", status.stream("project").orElseThrow().state());
    }

    private List<String> infos() {
        return logged.list.stream().filter(e -> e.getLevel() == Level.INFO).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }
}
